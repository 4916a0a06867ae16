#!/usr/bin/env node
// Checks every link of an HTML page written by matrix.mjs (or any page that
// links files beside it): each href that is not a web address names a file
// that exists (relative to the page), and its #fragment, when it has one, is
// the id of an element of that file. Exit 0 when every link resolves, 1 with
// one line per broken link, 2 on usage errors.
//   node adapters/check-links.mjs PAGE.html
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function unescapeHtml(s) {
  return s.replace(/&(amp|lt|gt|quot|#39);/g, (m, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]);
}

// The values of one attribute in a page, in order (one linear scan; the page is
// ours, attributes double-quoted).
function attributeValues(page, name) {
  const out = [];
  const needle = ` ${name}="`;
  for (let at = page.indexOf(needle); at >= 0; at = page.indexOf(needle, at + 1)) {
    const start = at + needle.length;
    const end = page.indexOf('"', start);
    if (end < 0) break;
    out.push(unescapeHtml(page.slice(start, end)));
  }
  return out;
}

export function brokenLinks(pageFile) {
  const page = fs.readFileSync(pageFile, 'utf8');
  const dir = path.dirname(pageFile);
  const ids = new Map();
  const idsOf = (file) => {
    if (!ids.has(file)) ids.set(file, new Set(attributeValues(fs.readFileSync(file, 'utf8'), 'id')));
    return ids.get(file);
  };
  const broken = [];
  for (const href of attributeValues(page, 'href')) {
    if (/^[a-z]+:/i.test(href)) continue;
    const hash = href.indexOf('#');
    const rel = hash < 0 ? href : href.slice(0, hash);
    const fragment = hash < 0 ? '' : href.slice(hash + 1);
    const file = rel === '' ? pageFile : path.resolve(dir, decodeURIComponent(rel));
    if (!fs.existsSync(file)) {
      broken.push(`${href}: no file ${file}`);
      continue;
    }
    if (fragment && /\.html?$/i.test(file) && !idsOf(file).has(fragment)) broken.push(`${href}: no id="${fragment}" in ${file}`);
  }
  return broken;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const page = process.argv[2];
  if (!page || !fs.existsSync(page)) {
    console.error('usage: node check-links.mjs PAGE.html');
    process.exit(2);
  }
  const broken = brokenLinks(page);
  for (const b of broken) console.error(`broken link: ${b}`);
  console.log(`${page}: ${broken.length ? `${broken.length} broken link(s)` : 'every link resolves'}`);
  process.exit(broken.length ? 1 : 0);
}
