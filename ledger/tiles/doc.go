// Package tiles serves and exports a sealed ledger as a C2SP tlog-tiles
// log (https://c2sp.org/tlog-tiles): the signed checkpoint, with the
// witness cosignatures stored beside it, at /checkpoint; hash tiles of
// height 8 at /tile/<L>/<N>[.p/<W>]; entry bundles (each leaf behind a
// big-endian uint16 length) at /tile/entries/<N>[.p/<W>].
//
// Tile contents are computed with golang.org/x/mod/sumdb/tlog
// ([tlog.ReadTileData]) from the stored hashes; paths are tlog's with the
// height element dropped and "data" spelt "entries", as tlog-tiles
// writes them ([Path], [ParsePath]).
//
// # Serving
//
// [Handler] answers GET and HEAD for the checkpoint and every tile the
// latest checkpoint covers, full or partial, with the content types the
// spec names and a long-lived Cache-Control (a tile's bytes never change);
// the checkpoint may be cached for a few seconds. Tiles are kept in a
// bounded in-memory cache. Entry bundles go gzip-compressed to clients
// that accept it (tlog-tiles: "Entry bundles SHOULD be compressed at the
// HTTP layer"), each compressed once and cached. A malformed path is 400
// with a *[PathError]'s text; a well-formed one the latest checkpoint
// does not cover is 404.
//
// # Exporting
//
// [Export] writes the same tree as static files under a directory,
// incrementally: full tiles already written are left alone.
//
// # Large leaves
//
// A bundle cannot hold a leaf over 65,535 bytes ([ledger.MaxLeafSize]);
// the ledger refuses new ones, and a tile of an older ledger holding one
// is refused with a *[LeafTooLargeError] naming its index and size.
package tiles
