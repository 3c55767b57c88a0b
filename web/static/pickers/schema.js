// A form for any move, built from the game's published move schema (JSON
// Schema, as ListGameTypes gives it): where the service's listing is only a
// sample (trades of any size, declarations, freeform notes), a seat can still
// say exactly what it does. Pure: the page draws the fields (table.js).
//
// variantsOf(schema) -> [{ title, description, fields: [field] }]
//   field: { name, kind: const|enum|integer|boolean|string|json, options, value, required, description }
// moveFrom(variant, values) -> { move } or { error }

function fieldOf(name, schema, required) {
  // A boolean schema: true admits anything (a JSON field); false is dropped in variantOf.
  if (typeof schema !== "object" || schema === null) return { name, required, description: "", kind: "json", value: "null" };
  const base = { name, required, description: schema.description || "" };
  if ("const" in schema) return { ...base, kind: "const", value: schema.const };
  if (Array.isArray(schema.enum)) return { ...base, kind: "enum", options: schema.enum, value: schema.enum[0] };
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "integer") return { ...base, kind: "integer", value: schema.minimum ?? 0, minimum: schema.minimum };
  if (type === "boolean") return { ...base, kind: "boolean", value: false };
  if (type === "string") return { ...base, kind: "string", value: "" };
  const example = schema.examples?.[0] ?? (type === "array" ? [] : {});
  return { ...base, kind: "json", value: JSON.stringify(example) };
}

function variantOf(schema, title) {
  const required = new Set(schema.required || []);
  const properties = schema.properties || {};
  // A property whose schema is false must be absent: no field for it.
  const fields = Object.entries(properties)
    .filter(([, sub]) => sub !== false)
    .map(([name, sub]) => fieldOf(name, sub, required.has(name)));
  if (!fields.length) {
    const example = schema.examples?.[0] ?? {};
    fields.push({ name: "", kind: "json", value: JSON.stringify(example), required: true, description: schema.description || "" });
  }
  const constant = fields.find((f) => f.kind === "const" && typeof f.value === "string");
  return {
    title: schema.title || title || (constant ? constant.value : fields.map((f) => f.name).join(" + ")),
    description: schema.description || "",
    fields,
  };
}

export function variantsOf(schema) {
  if (!schema || typeof schema !== "object") return [];
  if (Array.isArray(schema.oneOf)) return schema.oneOf.map((sub) => variantOf(sub));
  if (schema.properties && schema.type === "object" && !schema.required) {
    // "exactly one of the keys below": one variant per key.
    return Object.entries(schema.properties).map(([name, sub]) =>
      variantOf({ type: "object", properties: { [name]: sub }, required: [name], description: sub.description }, name),
    );
  }
  return [variantOf(schema)];
}

// The move the form's values make, or what is wrong with them.
export function moveFrom(variant, values) {
  let move = {};
  for (const field of variant.fields) {
    const raw = values[field.name];
    let value;
    if (field.kind === "const") value = field.value;
    else if (field.kind === "integer") {
      if (!/^-?\d+$/.test(String(raw ?? "").trim())) return { error: `${field.name} is a whole number` };
      value = Number(raw);
    } else if (field.kind === "boolean") value = Boolean(raw);
    else if (field.kind === "enum") value = field.options.find((o) => String(o) === String(raw)) ?? raw;
    else if (field.kind === "string") {
      value = String(raw ?? "");
      if (!value && !field.required) continue;
    } else {
      try {
        value = JSON.parse(String(raw ?? ""));
      } catch {
        return { error: `${field.name || "the move"} is not JSON` };
      }
    }
    if (field.name === "") {
      if (!value || typeof value !== "object" || Array.isArray(value)) return { error: "a move is a JSON object" };
      move = value;
    } else move[field.name] = value;
  }
  return { move };
}
