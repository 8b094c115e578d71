/**
 * Reads the few fields the model and the output need straight out of the JSON text, without
 * building the 19-field object: the node row's "schema projection". Values are flat JSON
 * numbers and strings without escapes, as gendata writes them.
 */

function valueStart(json: string, key: string): number {
  const at = json.indexOf(`"${key}":`);
  if (at < 0) throw new Error(`record has no "${key}"`);
  return at + key.length + 3;
}

export function numberField(json: string, key: string): number {
  const start = valueStart(json, key);
  let end = start;
  while (end < json.length && json.charCodeAt(end) !== 44 /* , */ && json.charCodeAt(end) !== 125 /* } */) end++;
  return Number(json.slice(start, end));
}

export function stringField(json: string, key: string): string {
  const start = valueStart(json, key) + 1; // past the opening quote
  return json.slice(start, json.indexOf('"', start));
}
