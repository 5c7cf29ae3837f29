import { readFileSync } from 'node:fs';
import { XmlDocument, XmlParseError, XmlValidateError, XsdValidator } from 'libxml2-wasm';
import { BankFileRefused } from '../../port.js';

export { BankFileRefused };

/** The ISO 20022 messages Ramp writes or reads, each with its schema in xsd/ (xsd/README.md says where they came from). */
export type MessageName = 'pain.001.001.09' | 'pain.002.001.10' | 'camt.053.001.08' | 'camt.054.001.08';

export const namespaceOf = (message: MessageName) => `urn:iso:std:iso:20022:tech:xsd:${message}`;

// One validator per message for the process's life: compiling a schema costs far more than validating a file.
const validators = new Map<MessageName, XsdValidator>();

function validatorOf(message: MessageName): XsdValidator {
  let validator = validators.get(message);
  if (!validator) {
    const schema = XmlDocument.fromString(readFileSync(new URL(`./xsd/${message}.xsd`, import.meta.url), 'utf8'));
    try {
      validator = XsdValidator.fromDoc(schema);
    } finally {
      schema.dispose();
    }
    validators.set(message, validator);
  }
  return validator;
}

/**
 * Parses `xml` and validates it against `message`'s schema: the document, for the caller to read and then dispose,
 * or BankFileRefused. The parse options are libxml2's defaults, which load no external DTD or entity: a file cannot
 * make Ramp read anything beside it.
 */
export function parseValid(xml: string, message: MessageName): XmlDocument {
  return parseValidOf(xml, [message]).document;
}

/**
 * Parses `xml` as whichever of `messages` its root's namespace names, and validates it against that message's schema:
 * the document and its message, or BankFileRefused.
 */
export function parseValidOf<M extends MessageName>(xml: string, messages: readonly M[]): { document: XmlDocument; message: M } {
  let document: XmlDocument;
  try {
    document = XmlDocument.fromString(xml);
  } catch (error) {
    if (error instanceof XmlParseError) throw new BankFileRefused(`not well-formed XML: ${firstLine(error.message)}`);
    throw error;
  }
  const root = document.root;
  const message = messages.find((candidate) => root.namespaceUri === namespaceOf(candidate));
  try {
    if (!message) throw new BankFileRefused(`not a ${messages.join(' or ')} message: its root is {${root.namespaceUri ?? ''}}${root.name}`);
    validatorOf(message).validate(document);
    return { document, message };
  } catch (error) {
    document.dispose();
    if (error instanceof XmlValidateError) throw new BankFileRefused(`not valid against the ${message} schema: ${firstLine(error.message)}`);
    throw error;
  }
}

/** Throws BankFileRefused unless `xml` is a valid `message`: what Ramp writes is checked like what it reads. */
export function assertValid(xml: string, message: MessageName): void {
  parseValid(xml, message).dispose();
}

const firstLine = (text: string) => text.trim().split('\n')[0] ?? '';
