package web

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/sealedhq/sealed/ledger"
)

// jsonKinds names a JSON value kind as a reader of the API says it.
var jsonKinds = map[string]string{
	"number": "a number", "string": "a string", "bool": "true or false", "boolean": "true or false",
	"object": "an object", "array": "an array", "null": "null", "true": "true", "false": "false",
	// jsontext.Kind's own spellings.
	"{": "an object", "[": "an array", `"`: "a string", "0": "a number", "t": "true", "f": "false", "n": "null",
}

// goTypes names what a Go destination type expects, in JSON terms.
var goTypes = map[string]string{
	"int": "a whole number", "int64": "a whole number", "int32": "a whole number", "uint": "a whole number",
	"uint64": "a whole number", "uint32": "a whole number", "string": "a string", "bool": "true or false",
	"float64": "a number",
}

// entryBodyMessage is the text of a ledger.BodyError for the write API:
// "FIELD: what was expected" without the "bad entry body:" prefix (the
// answer adds its own "bad entry:"). ledger.ParseBody already says the
// decoder's refusals in the entry's field names and JSON terms ("commit:
// expected a whole number, got 1.5", "unknown field \"colour\"").
func entryBodyMessage(be *ledger.BodyError) string {
	if be.Field != "" {
		return be.Field + ": " + be.Msg
	}
	return be.Msg
}

// verifyBodyMessage says what is wrong with a POST /api/v1/verify body in
// the API's terms: the member and the JSON kinds (from json v2's
// SemanticError), never the Go type it was decoded into.
func verifyBodyMessage(body []byte, err error) string {
	const expected = "expected one JSON object {\"commitment\": \"<64 hex>\", \"reveal\": \"<text>\"}"
	// What jsontext would say in its own words ("unexpected EOF",
	// "invalid character '\ufeff' at start of value", "after top-level
	// value after offset N"), said in the API's.
	var syn *jsontext.SyntacticError
	switch {
	case bytes.HasPrefix(body, []byte("\xef\xbb\xbf")):
		return "the body starts with a UTF-8 byte order mark (EF BB BF), which JSON does not allow; " + expected
	case len(bytes.TrimLeft(body, " \t\r\n")) == 0:
		return "empty body; " + expected
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON ends before the object is closed; " + expected
	case errors.As(err, &syn) && strings.Contains(syn.Err.Error(), "after top-level value"):
		return fmt.Sprintf("more after the JSON object, at byte %d; %s and nothing after it", syn.ByteOffset+1, expected)
	}
	var se *json.SemanticError
	if errors.As(err, &se) {
		member := strings.TrimPrefix(string(se.JSONPointer), "/")
		switch {
		case errors.Is(se.Err, json.ErrUnknownName):
			return "unknown field \"" + member + "\"; expected commitment and reveal"
		case member != "" && se.GoType != nil:
			want := goTypes[se.GoType.String()]
			if want == "" {
				want = "another JSON type"
			}
			got := jsonKinds[se.JSONKind.String()]
			if got == "" {
				got = "a " + se.JSONKind.String()
			}
			return member + ": expected " + want + ", got " + got
		case member == "" && se.JSONKind != 0:
			// The body itself is not an object: `[]`, `"x"`, `1`.
			got := jsonKinds[se.JSONKind.String()]
			if got == "" {
				got = "a " + se.JSONKind.String()
			}
			return expected + ", got " + got
		}
	}
	// Syntax errors (jsontext): their text names the offset and the
	// problem (invalid UTF-8, a lone surrogate, a duplicate name), not Go.
	return expected + " (RFC 7493 I-JSON: valid UTF-8, no lone surrogates, no duplicate names): " +
		strings.TrimPrefix(err.Error(), "jsontext: ")
}
