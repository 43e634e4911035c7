// Parses each request case of corpus.txt, and seeded mutations of it, with Node's llhttp (strict:
// no lenient flags) and prints what it saw, one record per case, for LlhttpDifferentialTest:
//   case <name> <input base64>
//   msg <method> <target base64> <major.minor> <upgrade 0|1>
//   hdr <name base64> <value base64>        (header fields of the message above)
//   body <base64>
//   trl <name base64> <value base64>        (trailer fields, after the body)
//   end
//   verdict accept | reject <llhttp error code>
// Usage: node differential.js corpus.txt SEED MUTATIONS_PER_CASE
'use strict';
const fs = require('fs');
process.noDeprecation = true;
const { HTTPParser, methods } = process.binding('http_parser');

const [corpusPath, seedArg, perCaseArg] = process.argv.slice(2);
let seed = (Number(seedArg) >>> 0) || 1;
const perCase = Number(perCaseArg) || 0;

function unescape(s) {
  const out = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== '\\') { out.push(c.charCodeAt(0) & 0xff); continue; }
    const n = s[++i];
    if (n === 'r') out.push(13);
    else if (n === 'n') out.push(10);
    else if (n === 't') out.push(9);
    else if (n === '\\') out.push(92);
    else if (n === 'x') { out.push(parseInt(s.substr(i + 1, 2), 16)); i += 2; }
    else throw new Error('bad escape \\' + n + ' in ' + s);
  }
  return Buffer.from(out);
}

// xorshift32: the same mutations for the same seed on every machine
function next() {
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed;
}
const INTERESTING = [13, 10, 32, 9, 58, 59, 44, 34, 48, 49, 97, 70, 0, 0x7f, 0x80, 0xff, 0x0b, 45, 43];

function mutate(input) {
  const bytes = Array.from(input);
  const edits = 1 + (next() % 3);
  for (let e = 0; e < edits && bytes.length > 0; e++) {
    const at = next() % bytes.length;
    switch (next() % 4) {
      case 0: bytes.splice(at, 1); break;                                          // drop a byte
      case 1: bytes.splice(at, 0, INTERESTING[next() % INTERESTING.length]); break; // insert one
      case 2: bytes[at] = INTERESTING[next() % INTERESTING.length]; break;          // replace one
      default: { // flip the case of a letter
        const b = bytes[at];
        if ((b >= 65 && b <= 90) || (b >= 97 && b <= 122)) bytes[at] = b ^ 0x20;
        else bytes.splice(at, 0, b);
      }
    }
  }
  return Buffer.from(bytes);
}

const b64 = (s) => Buffer.from(s, 'latin1').toString('base64');

function parse(input) {
  const lines = [];
  const parser = new HTTPParser();
  parser.initialize(HTTPParser.REQUEST, {}, 0, 0);
  let partialHeaders = [];
  let partialUrl = '';
  let inHead = true;
  let body = [];
  let trailers = [];
  parser[HTTPParser.kOnMessageBegin] = () => { inHead = true; partialHeaders = []; partialUrl = ''; body = []; trailers = []; };
  parser[HTTPParser.kOnHeaders] = (headers, url) => {
    if (inHead) { partialHeaders = partialHeaders.concat(headers); partialUrl += url || ''; return; }
    for (let i = 0; i < headers.length; i += 2) trailers.push('trl ' + b64(headers[i]) + ' ' + b64(headers[i + 1]));
  };
  parser[HTTPParser.kOnHeadersComplete] = (major, minor, headers, method, url, status, message, upgrade) => {
    const all = partialHeaders.concat(headers || []);
    lines.push('msg ' + methods[method] + ' ' + b64(partialUrl + (url || '')) + ' ' + major + '.' + minor + ' ' + (upgrade ? 1 : 0));
    for (let i = 0; i < all.length; i += 2) lines.push('hdr ' + b64(all[i]) + ' ' + b64(all[i + 1]));
    inHead = false;
    return 0;
  };
  parser[HTTPParser.kOnBody] = (chunk) => { body.push(Buffer.from(chunk)); };
  parser[HTTPParser.kOnMessageComplete] = () => {
    lines.push('body ' + Buffer.concat(body).toString('base64'));
    lines.push(...trailers);
    lines.push('end');
  };
  let result = parser.execute(input);
  if (!(result instanceof Error) && !parser.upgrade) {
    const atEof = parser.finish();
    if (atEof instanceof Error) result = atEof;
  }
  lines.push(result instanceof Error ? 'verdict reject ' + result.code : 'verdict accept');
  return lines;
}

const out = [];
for (const line of fs.readFileSync(corpusPath, 'latin1').split('\n')) {
  if (line === '' || line.startsWith('#')) continue;
  const tab = line.indexOf('\t');
  const name = line.slice(0, tab);
  const input = unescape(line.slice(tab + 1));
  const cases = [[name, input]];
  for (let m = 0; m < perCase; m++) cases.push([name + '~' + m, mutate(input)]);
  for (const [caseName, bytes] of cases) {
    out.push('case ' + caseName + ' ' + bytes.toString('base64'));
    out.push(...parse(bytes));
  }
}
process.stdout.write(out.join('\n') + '\n');
