import { Migration } from '@mikro-orm/migrations';
import { Kind, parse, print, visit } from 'graphql';

/** The live types an event's `subject` used to be, and the snapshot type each is now. */
const SNAPSHOT_OF: Record<string, string> = {
  Customer: 'CustomerSnapshot',
  BankAccount: 'BankAccountSnapshot',
  VirtualAccount: 'VirtualAccountSnapshot',
  OnrampTransfer: 'OnrampTransferSnapshot',
  OfframpTransfer: 'OfframpTransferSnapshot',
};

/**
 * `Event.subject` is a snapshot now (its own type and id, so caches never roll the live object back).
 * A webhook's stored subscription query that selects `subject { ... on Customer { … } }` would no
 * longer validate: its inline fragments directly under `subject` are renamed to the snapshot types,
 * which have the same fields, so every delivery keeps its shape. Returns null when nothing changes.
 */
export function renameSubjectFragments(query: string): string | null {
  // The fields enclosing the node being visited: only a fragment whose nearest field is `subject` is the subject's.
  const fields: string[] = [];
  let renamed = false;
  const document = visit(parse(query), {
    Field: {
      enter: (node) => {
        fields.push(node.name.value);
      },
      leave: () => {
        fields.pop();
      },
    },
    InlineFragment: (node) => {
      const name = node.typeCondition?.name.value;
      if (fields.at(-1) !== 'subject' || !name || !SNAPSHOT_OF[name]) return undefined;
      renamed = true;
      return { ...node, typeCondition: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: SNAPSHOT_OF[name] } } };
    },
  });
  return renamed ? print(document) : null;
}

export class Migration20261126000400_snapshot_subjects extends Migration {
  override name = 'Migration20261126000400_snapshot_subjects';

  override async up(): Promise<void> {
    const rows = await this.execute('select id, subscription_query from webhook_endpoints where subscription_query is not null');
    for (const row of rows as { id: string; subscription_query: string }[]) {
      const renamed = renameSubjectFragments(row.subscription_query);
      if (renamed) {
        this.addSql(`update webhook_endpoints set subscription_query = '${renamed.replaceAll("'", "''")}' where id = '${row.id}'`);
      }
    }
  }
}
