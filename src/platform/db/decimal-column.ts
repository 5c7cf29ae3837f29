import { type EntityProperty, type Platform, Type } from '@mikro-orm/core';
import { Decimal } from 'decimal.js';

/**
 * A `numeric` column read and written as a `Decimal` (money is a Decimal in memory,
 * never a JS number and not a string to re-parse at every use). Values compare by amount, so
 * `100.5` and `100.500000` are the same and never make a row dirty.
 */
export class DecimalColumn extends Type<Decimal | null | undefined, string | null | undefined> {
  override convertToDatabaseValue(value: Decimal | string | null | undefined): string | null | undefined {
    return value == null ? value : new Decimal(value).toFixed();
  }

  override convertToJSValue(value: Decimal | string | null | undefined): Decimal | null | undefined {
    return value == null ? value : new Decimal(value);
  }

  override compareAsType(): string {
    return 'any';
  }

  override compareValues(a: string | null | undefined, b: string | null | undefined): boolean {
    if (a == null || b == null) return a === b;
    return new Decimal(a).equals(b);
  }

  override getColumnType(prop: EntityProperty, platform: Platform): string {
    return platform.getDecimalTypeDeclarationSQL(prop);
  }

  override toJSON(value: Decimal | null | undefined): string | null | undefined {
    return value == null ? value : value.toFixed();
  }
}
