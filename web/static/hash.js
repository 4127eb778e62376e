// sealed /hash page: builds the reveal text and its SHA-256 commitment in the
// browser, byte-identical to `sealed commit`. Nothing typed here is sent
// anywhere: there is no form submission and no network request.
"use strict";

// RFC 4648 base32 alphabet, lowercased; sealed writes salts without padding.
const B32 = "abcdefghijklmnopqrstuvwxyz234567";

function base32(bytes) {
  let out = "", bits = 0, value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

function newSalt() {
  const b = new Uint8Array(16); // 128 bits
  crypto.getRandomValues(b);
  return base32(b);
}

function hex(buf) {
  return Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
}

// WEAK_BITS and saltAudit port commit.AuditSalt (commit/audit_salt.go,
// docs/commitments.md "Salt audit") so this page warns about the same salts
// as `sealed commit --salt`: guesses = plausible declarations x salt space,
// weak below 2^64. The browser test compares the two for several salts.
const WEAK_BITS = 64;

// saltBits: the alphabet the salt's characters suggest and log2 of the
// salt space (commit.saltBits), over code points as Go's runes.
function saltBits(s) {
  const chars = Array.from(s);
  const n = chars.length;
  if (n === 0) return { alphabet: 0, bits: 0 };
  let lower = false, upper = false, digit = false, symbol = false, other = false;
  let hexOnly = true, base32Only = true;
  const distinct = new Set();
  for (const ch of chars) {
    const r = ch.codePointAt(0);
    distinct.add(r);
    if (r >= 0x61 && r <= 0x7a) lower = true;
    else if (r >= 0x41 && r <= 0x5a) upper = true;
    else if (r >= 0x30 && r <= 0x39) digit = true;
    else if (r >= 0x20 && r <= 0x7e) symbol = true; // printable ASCII (unicode.IsPrint below 0x80)
    else other = true;
    if (!((r >= 0x30 && r <= 0x39) || (r >= 0x61 && r <= 0x66))) hexOnly = false;
    if (!((r >= 0x61 && r <= 0x7a) || (r >= 0x32 && r <= 0x37))) base32Only = false;
  }
  let alphabet = 0;
  if (hexOnly && digit && lower) alphabet = 16;
  else if (base32Only && digit && lower) alphabet = 32;
  else {
    if (lower) alphabet += 26;
    if (upper) alphabet += 26;
    if (digit) alphabet += 10;
    if (symbol) alphabet += 33;
    if (other) alphabet += 128;
  }
  if (distinct.size === 1) return { alphabet, bits: Math.log2(alphabet * n) };
  if (base32Only && n === 26) return { alphabet: 32, bits: 128 }; // NewSalt's form
  return { alphabet, bits: n * Math.log2(alphabet) };
}

// declarationBits: for each run of ASCII digits, 10^(digits+1) values; 2^10
// wordings when there are none (commit.declarationBits).
function declarationBits(decl) {
  let bits = 0, runs = 0;
  for (const m of decl.matchAll(/[0-9]+/g)) {
    bits += (m[0].length + 1) * Math.log2(10);
    runs++;
  }
  return runs === 0 ? 10 : bits;
}

// saltAudit(decl, salt) = commit.AuditSalt(decl + "\nsalt: " + salt):
// guessesLog2 and weak.
function saltAudit(decl, salt) {
  const guessesLog2 = declarationBits(decl) + saltBits(salt).bits;
  return { guessesLog2, weak: guessesLog2 < WEAK_BITS };
}

// LINE_BREAK matches one line break of commit.LineBreaks: LF, CR, CRLF,
// VT, FF, NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR.
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

// saltLine ports commit.FindSaltLine: the first line of decl that starts
// with "salt:" in any ASCII letter case, as {number, prefix, after} (after
// names the line break before it, "" for the first line), or null. The
// browser test compares the two.
function saltLine(decl) {
  let after = "";
  for (let n = 1; ; n++) {
    const m = LINE_BREAK.exec(decl);
    const text = m ? decl.slice(0, m.index) : decl;
    if (/^[Ss][Aa][Ll][Tt]:/.test(text)) return { number: n, prefix: text.slice(0, 5), after };
    if (!m) return null;
    const b = m[0];
    after = { "\r\n": "CRLF", "\n": "LF", "\r": "CR", "\v": "VT", "\f": "FF" }[b] ||
      "U+" + b.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
    decl = decl.slice(m.index + b.length);
  }
}

// leafSize(bytes, overhead) = ledger.RevealLeafSize of the reveal's UTF-8
// bytes: overhead (the rest of the leaf, from the page's
// data-leaf-overhead) plus the text's RFC 8785 string, which is
// JSON.stringify's. A leading byte order mark is the reveal's too: the
// decoder keeps it (ignoreBOM), where by default it would drop it.
function leafSize(bytes, overhead) {
  return overhead + new TextEncoder().encode(JSON.stringify(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes))).length;
}

// goTrim(s) = Go's strings.TrimSpace(s), which `sealed commit` applies:
// Unicode White_Space (unicode.IsSpace), which has U+0085 and not U+FEFF,
// where JavaScript's trim() has U+FEFF and not U+0085.
const GO_SPACE = "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const GO_TRIM = new RegExp("^" + GO_SPACE + "+|" + GO_SPACE + "+$", "g");
function goTrim(s) {
  return s.replace(GO_TRIM, "");
}

// declarationOf(text) is the declaration a typed text makes, as `sealed
// commit` takes it: one trailing line break (LF or CRLF; a last Enter)
// is dropped, since the reveal text adds its own before "salt:".
function declarationOf(text) {
  return text.replace(/\r?\n$/, "");
}

async function commit() {
  const decl = declarationOf(document.getElementById("declaration").value);
  const saltBox = document.getElementById("salt");
  const err = document.getElementById("hash-error");
  err.textContent = "";
  if (goTrim(decl) === "") {
    err.textContent = "Type what you declare first, e.g. I bid 15 on lot 3.";
    return;
  }
  const sl = saltLine(decl);
  if (sl) {
    // As `sealed commit`: a line starting "salt:" would make the reveal text ambiguous.
    err.textContent = (sl.number === 1 ? "The declaration starts" : "Line " + sl.number + " of the declaration (after the line break " + sl.after + ") starts") +
      " with \"" + sl.prefix + "\": a line starting with \"salt:\" in any letter case would make the reveal text ambiguous. Type only the declaration; the salt goes below.";
    return;
  }
  let salt = saltBox.value;
  const warning = document.getElementById("salt-warning");
  warning.textContent = "";
  warning.hidden = true;
  const drawn = salt === "";
  if (drawn) {
    salt = newSalt();
    saltBox.value = salt;
  } else if (goTrim(salt) !== salt) {
    err.textContent = "The salt starts or ends with a space, which is easily lost when copied.";
    return;
  } else if (LINE_BREAK.test(salt)) {
    err.textContent = "The salt has a line break; the salt is the rest of the reveal text's last line.";
    return;
  }
  if (!window.crypto || !crypto.subtle) {
    err.textContent = "This browser offers WebCrypto only on https:// or localhost pages; open the site that way, or use `sealed commit`.";
    return;
  }
  const reveal = decl + "\nsalt: " + salt; // no trailing newline, as `sealed commit`
  const bytes = new TextEncoder().encode(reveal);
  const form = document.getElementById("hash-form");
  const maxLeaf = Number(form.dataset.maxLeaf), size = leafSize(bytes, Number(form.dataset.leafOverhead));
  if (size > maxLeaf) {
    // As `sealed commit`: the reveal could never be recorded in the ledger.
    err.textContent = "The reveal text would need a ledger leaf of up to " + size + " bytes, more than the " + maxLeaf +
      " a leaf can hold: its reveal could never be recorded. Shorten the declaration so that its reveal takes " + (size - maxLeaf) +
      " bytes fewer in the leaf, where a control character takes 6 bytes and a line break, tab, quote or backslash 2.";
    return;
  }
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  document.getElementById("reveal").value = reveal;
  const h = hex(digest);
  document.getElementById("commitment").value = h;
  document.getElementById("lookup").href = "/c/" + h;
  document.getElementById("post-example").textContent =
    "curl -H \"Authorization: Bearer $TOKEN\" -H 'Content-Type: application/json' \\\n" +
    "  -d '{\"kind\":\"commit\",\"player\":\"YOUR NAME\",\"action_type\":\"bid\",\"channel\":\"#auctions\",\"commitment\":\"" + h + "\"}' \\\n" +
    "  " + location.origin + "/api/v1/entries";
  if (!drawn) {
    const a = saltAudit(decl, salt);
    if (a.weak) {
      // The warning `sealed commit --salt` prints for the same input.
      warning.textContent = "Weak salt: about 2^" + a.guessesLog2.toFixed(1) + " (" + Math.pow(2, a.guessesLog2).toPrecision(2) +
        ") guesses recover this declaration from its commitment. Clear the salt box to get 128 random bits.";
      warning.hidden = false;
    }
  }
  document.getElementById("result").hidden = false;
}

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("hash-form");
  form.addEventListener("submit", (ev) => {
    ev.preventDefault(); // never submitted: the text stays in this page
    commit();
  });
  document.getElementById("new-salt").addEventListener("click", () => {
    document.getElementById("salt").value = newSalt();
  });
});
