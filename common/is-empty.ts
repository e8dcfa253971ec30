// "Empty" as understood by form/query handling: absent values, the literal
// strings that stringified absent values produce, and empty containers.
// Numbers and booleans are real values, so 0, NaN and false are NOT empty.

function isPlainObject(v: object): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** True for null, undefined, '', 'null', 'undefined', [] and plain objects with no own keys. */
export function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'string') return v === '' || v === 'null' || v === 'undefined';
  if (Array.isArray(v)) return v.length === 0;
  // Only plain objects: a Date, Map or class instance with no own keys is still a value.
  if (typeof v === 'object') return isPlainObject(v) && Reflect.ownKeys(v).length === 0;
  return false;
}
