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

async function commit() {
  const decl = document.getElementById("declaration").value;
  const saltBox = document.getElementById("salt");
  const err = document.getElementById("hash-error");
  err.textContent = "";
  if (decl.trim() === "") {
    err.textContent = "Type what you declare first, e.g. I bid 15 on lot 3.";
    return;
  }
  if (/^salt:/im.test(decl)) {
    // As `sealed commit`: a line starting "salt:" would make the reveal text ambiguous.
    err.textContent = "A line of the declaration starts with \"salt:\"; type only the declaration, the salt goes below.";
    return;
  }
  let salt = saltBox.value;
  if (salt === "") {
    salt = newSalt();
    saltBox.value = salt;
  } else if (salt.trim() !== salt) {
    err.textContent = "The salt starts or ends with a space, which is easily lost when copied.";
    return;
  }
  if (!window.crypto || !crypto.subtle) {
    err.textContent = "This browser offers WebCrypto only on https:// or localhost pages; open the site that way, or use `sealed commit`.";
    return;
  }
  const reveal = decl + "\nsalt: " + salt; // no trailing newline, as `sealed commit`
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(reveal));
  document.getElementById("reveal").value = reveal;
  const h = hex(digest);
  document.getElementById("commitment").value = h;
  document.getElementById("lookup").href = "/c/" + h;
  document.getElementById("post-example").textContent =
    "curl -H \"Authorization: Bearer $TOKEN\" -H 'Content-Type: application/json' \\\n" +
    "  -d '{\"kind\":\"commit\",\"player\":\"YOUR NAME\",\"action_type\":\"bid\",\"channel\":\"#auctions\",\"commitment\":\"" + h + "\"}' \\\n" +
    "  " + location.origin + "/api/v1/entries";
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
