const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/u;
const SIGNATURE_DEPTH = 4;

/**
 * A compact TypeScript-like signature of a JSON Schema: property names, types, enums and `?` for optional
 * (not required, or with a default), e.g. `{query: string, page?: integer}` or `{field?: 'health'|'food'}`.
 * Anything it cannot read is `any`; nesting deeper than a few levels is `object`.
 */
export const inputSignature = (schema: unknown, depth = 0): string => {
  if (!isRecord(schema)) return schema === false ? "never" : "any";
  if ("const" in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives))
    return union(alternatives.map((alternative) => inputSignature(alternative, depth + 1)));
  if (Array.isArray(schema.allOf))
    return schema.allOf.map((part) => inputSignature(part, depth + 1)).join(" & ") || "any";
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return union(
    types.map((type) => {
      if (type === "object" || (type === undefined && isRecord(schema.properties)))
        return objectSignature(schema, depth);
      if (type === "array") {
        const item = inputSignature(schema.items, depth + 1);
        return `${item.includes("|") || item.includes("&") ? `(${item})` : item}[]`;
      }
      return typeof type === "string" ? type : "any";
    }),
  );
};

const objectSignature = (schema: Record<string, unknown>, depth: number): string => {
  if (depth >= SIGNATURE_DEPTH) return "object";
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const fields = Object.entries(properties).map(([name, property]) => {
    const optional = !required.has(name) || (isRecord(property) && "default" in property);
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    return `${key}${optional ? "?" : ""}: ${inputSignature(property, depth + 1)}`;
  });
  const extra = schema.additionalProperties;
  if (isRecord(extra)) fields.push(`[key: string]: ${inputSignature(extra, depth + 1)}`);
  return `{${fields.join(", ")}}`;
};

/** A literal as TypeScript writes it: strings in single quotes (cheaper than escaped double quotes in JSON). */
const literal = (value: unknown): string =>
  typeof value === "string"
    ? `'${value.replace(/[\\']/gu, (char) => `\\${char}`)}'`
    : (JSON.stringify(value) ?? "any");

const union = (parts: readonly string[]): string => [...new Set(parts)].join("|") || "any";
