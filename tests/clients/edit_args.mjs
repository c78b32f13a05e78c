// The edit arguments the Node client drivers share (EDIT=NODE:VALUES, comma-separated numbers)
// and their one way to fail: a message naming the driver, exit 1.
let driver = 'client';

export function driverName(name) {
  driver = name;
}

export function fail(message) {
  console.error(`${driver}: ${message}`);
  process.exit(1);
}

export function numbers(text, count) {
  const values = text.split(',').map(Number);
  if (values.length !== count || values.some(Number.isNaN)) fail(`want ${count} numbers, got '${text}'`);
  return values;
}

export function split(arg) {
  const at = arg.indexOf(':');
  return at < 0 ? [arg, ''] : [arg.slice(0, at), arg.slice(at + 1)];
}
