package web

import (
	"errors"
	"regexp"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/sealedhq/sealed/ledger"
)

// jsonKinds names a JSON value kind as a reader of the API says it.
var jsonKinds = map[string]string{
	"number": "a number", "string": "a string", "bool": "true or false", "boolean": "true or false",
	"object": "an object", "array": "an array", "null": "null", "true": "true", "false": "false",
}

// goTypes names what a Go destination type expects, in JSON terms.
var goTypes = map[string]string{
	"int": "a whole number", "int64": "a whole number", "int32": "a whole number", "uint": "a whole number",
	"uint64": "a whole number", "uint32": "a whole number", "string": "a string", "bool": "true or false",
	"float64": "a number",
}

// v1TypeError is encoding/json's wording of a type mismatch, as
// ledger.ParseBody passes it on in a BodyError message:
// "json: cannot unmarshal number 1.5 into Go struct field Body.commit of type int64".
var v1TypeError = regexp.MustCompile(`^json: cannot unmarshal (\w+)(?: (.+?))? into Go (?:struct field [\w]+\.([\w.]+)|value) of type (\S+)$`)

// v1UnknownField is encoding/json's wording of an unknown field.
var v1UnknownField = regexp.MustCompile(`^json: unknown field (".*")$`)

// entryBodyMessage is the text of a ledger.BodyError for the write API: no
// "bad entry body:" prefix (the answer adds its own "bad entry:"), and
// encoding/json's Go wording (struct and Go type names) said in the
// entry's field names and JSON terms: "commit: expected a whole number,
// got 1.5", "unknown field \"colour\"". Other messages pass unchanged.
func entryBodyMessage(be *ledger.BodyError) string {
	msg := be.Msg
	if be.Field != "" {
		return be.Field + ": " + msg
	}
	if m := v1UnknownField.FindStringSubmatch(msg); m != nil {
		return "unknown field " + m[1]
	}
	if m := v1TypeError.FindStringSubmatch(msg); m != nil {
		got := jsonKinds[m[1]]
		if got == "" {
			got = m[1]
		}
		if m[2] != "" && m[1] == "number" {
			got = m[2]
		}
		want := goTypes[m[4]]
		if want == "" {
			want = "another JSON type"
		}
		field := m[3]
		if field == "" {
			return "expected " + want + ", got " + got
		}
		return field + ": expected " + want + ", got " + got
	}
	return strings.TrimPrefix(msg, "json: ")
}

// verifyBodyMessage says what is wrong with a POST /api/v1/verify body in
// the API's terms: the member and the JSON kinds (from json v2's
// SemanticError), never the Go type it was decoded into.
func verifyBodyMessage(err error) string {
	const expected = "expected one JSON object {\"commitment\": \"<64 hex>\", \"reveal\": \"<text>\"}"
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
		}
	}
	// Syntax errors (jsontext): their text names the offset and the
	// problem (invalid UTF-8, a lone surrogate, a duplicate name), not Go.
	return expected + " (RFC 7493 I-JSON: valid UTF-8, no lone surrogates, no duplicate names): " +
		strings.TrimPrefix(err.Error(), "jsontext: ")
}
