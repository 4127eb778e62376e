// Package web serves sealed's public site and JSON API with echo v4 over
// a ledger (package ledger: an RFC 6962 Merkle tree of entries with C2SP
// tlog-checkpoint / signed-note checkpoints): look a commitment up and see
// its state under seed 004's "Secret Information" rule (rules/secret,
// through verify.JudgeActions), check a reveal byte for byte with near-miss
// hints (commit.Verify), hash a declaration in the browser exactly as
// `sealed commit` does (WebCrypto SHA-256, FIPS 180-4, over
// "<declaration>\nsalt: <salt>"), browse entries with RFC 6962 inclusion
// proofs, read the signed checkpoint, and view a stored replay's
// re-simulation (verify.CheckReplay) with server-rendered SVG charts.
// docs/web.md lists the pages and the API.
//
// Pages are html/template files and static files embedded with embed;
// every value a player wrote is escaped by html/template, and no player
// text is ever passed as template.HTML. The one exception to executing
// a template is the commitment page's common case, written by pageWriter
// (pagefast.go) as the same bytes html/template gives, escaping each value
// as html/template does in that place; TestCommitmentPageMatchesTemplate
// holds it to the template byte for byte over the test ledgers and over
// views full of markup, quotes and hidden characters, and anything it does
// not handle is left to the template. Every answer carries a strict
// Content-Security-Policy (no inline script or style, no connections),
// X-Content-Type-Options: nosniff and Referrer-Policy: no-referrer. Request
// bodies are bounded (413), POST requests are rate-limited per client
// (429, echo's RateLimiter with its memory store), and the write API
// (POST /api/v1/entries) needs a bearer token compared in constant time
// (401) and a ledger opened with its signer key (else 403). Bad input is a
// 4xx with a message saying what was expected, never a 500: the
// HTTPErrorHandler maps every error.
//
// Pages read through a ledger opened read-only (ledger.Options.ReadOnly);
// only the write API uses the writer.
package web
