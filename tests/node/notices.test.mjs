// What the built site redistributes from others travels with it (scripts/notices): each web font it
// ships and each library its modules compile in is named in THIRD-PARTY-NOTICES.txt at the site's
// root, with its licence's own text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const site = path.join(root, 'build/site');

test('THIRD-PARTY-NOTICES.txt names every font the site ships and every library its modules compile in, with its licence', () => {
  const notices = fs.readFileSync(path.join(site, 'THIRD-PARTY-NOTICES.txt'), 'utf8');
  const fonts = fs.readdirSync(path.join(site, 'fonts')).filter((f) => f.endsWith('.woff2'));
  assert.ok(fonts.length >= 3);
  for (const font of fonts) assert.ok(notices.includes(font.replace(/-(regular|semibold)\.woff2$/, '-*.woff2')) || notices.includes(font), font);
  // Each licence's operative text, not only its name.
  assert.match(notices, /SIL OPEN FONT LICENSE Version 1\.1|PREAMBLE[\s\S]*Open Font License/);
  assert.match(notices, /Apache License\s+Version 2\.0, January 2004/);
  assert.match(notices, /Copyright \(c\) 2014-2021 Omar Cornut/);
  assert.match(notices, /Niels Lohmann/);
  assert.match(notices, /Permission is hereby granted, free of charge/);
  assert.match(notices, /Emscripten/);
});
