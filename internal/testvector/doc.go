// Package testvector reads the project's test vector files, in the style of
// filippo.io/age's test vectors: "key: value" header lines (lines starting
// with "#" are comments), one blank line, then the raw bytes, which run to
// the end of the file exactly (no trailing newline is added or removed).
//
// Every package's tests keep their vectors in testdata/ in this format, so
// that the bytes under test are the file's bytes and the expected values
// sit beside them with the command that produced them.
package testvector
