package verify

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// utf8BOM is the UTF-8 encoding of U+FEFF, the byte order mark some
// editors put at the start of a file.
var utf8BOM = []byte("\xef\xbb\xbf")

// strictOptions are the options every replay is decoded with
// (docs/replays.md, "Reading a replay"): on top of the RFC 8259 grammar and
// UTF-8 strings (RFC 8259 section 8.1), which jsontext always enforces, a
// key given twice in one object is refused (jsontext's default, as
// ledger.ParseBody refuses it through RFC 8785 parsing), and so is a key
// the Go type does not define. Keys match struct tags exactly, case
// included.
var strictOptions = json.JoinOptions(json.RejectUnknownMembers(true))

// decodeStrict decodes the replay data into v with strictOptions. what
// names the replay in errors ("auction replay", "bargaining replay"). The
// error says what was wrong and where, as "event N" or the field path used
// in Difference.Field ("config", "results.ranking[0]"): a leading UTF-8
// byte order mark, a duplicate key, an unknown key, invalid JSON or a value
// of the wrong JSON type. A JSON null is of the wrong type wherever it is
// (refuseNull), and so is anything but a JSON number where v keeps the
// number's text (kindChecker).
func decodeStrict(data []byte, v any, what string) error {
	if err := checkStart(data); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v, strictOptions); err != nil {
		return readError(err, what)
	}
	if err := refuseNull(data, what); err != nil {
		return err
	}
	if k, ok := v.(kindChecker); ok {
		if err := k.checkKinds(); err != nil {
			return fmt.Errorf("reading %s: %v", what, err)
		}
	}
	return nil
}

// kindChecker is a wire struct holding raw JSON values (jsontext.Value),
// which the decoder fills with a value of any kind: checkKinds says which
// one is not of the kind the format gives it, naming it as Difference.Field
// does ("results.scores[0] is a JSON string; expected a JSON number").
type kindChecker interface {
	checkKinds() error
}

// numbersOnly returns an error naming the first of vs that is not a JSON
// number; field names the list ("results.scores").
func numbersOnly(field string, vs []jsontext.Value) error {
	for i, v := range vs {
		if k := v.Kind(); k != '0' {
			return fmt.Errorf("%s[%d] is a JSON %s; expected a JSON number", field, i, kindName(k))
		}
	}
	return nil
}

// refuseNull returns an error naming the first JSON null in data, which
// decodeStrict has read without error (so data is one valid JSON value). No
// field of a replay takes null: the decoder would read it as the field's
// absence (a nil slice or pointer), so a null where a list or number
// belongs would be reported as a claim left out instead of as the value of
// the wrong type it is (docs/replays.md, "Reading a replay"). A field that
// is optional is left out, never null.
func refuseNull(data []byte, what string) error {
	if !bytes.Contains(data, []byte("null")) {
		return nil
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil // io.EOF: Unmarshal has read data without error
		}
		if tok.Kind() == 'n' {
			ptr := dec.StackPointer()
			if ptr == "" {
				return fmt.Errorf("reading %s: replay is a JSON null; expected a JSON object", what)
			}
			at := strings.TrimPrefix(where(ptr), "in ")
			return fmt.Errorf("reading %s: %s is a JSON null; expected a value of its type (no field of a replay takes null: leave an optional one out)", what, at)
		}
	}
}

// replayFormat returns the name of a replay's dialect field and its value:
// the top-level "format" (sealed's replays) or "protocol" (the engine's),
// whichever comes first, reading no further than that member; key is ""
// when the object has neither. The game's own decoder reads the whole
// replay strictly afterwards; an error here comes from what was read so
// far. When the field is the object's first member, written plainly, the
// scanner reads it; otherwise replayFormatStrict does.
func replayFormat(data []byte) (key, value string, err error) {
	s := &scanner{data: data}
	if s.begin('{') {
		if k := s.key(dialectKeys, -1); k >= 0 {
			if v := s.string(); !s.failed {
				return dialectKeys.names[k], v, nil
			}
		}
	}
	return replayFormatStrict(data)
}

// dialectKeys are the names of the members that tell the dialects apart.
var dialectKeys = newKeySet([]string{"format", "protocol"}, []string{"format"}, []string{"protocol"})

// replayFormatStrict is replayFormat over jsontext's tokens.
func replayFormatStrict(data []byte) (key, value string, err error) {
	if err := checkStart(data); err != nil {
		return "", "", err
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	tok, err := dec.ReadToken()
	if t := bytes.TrimLeft(data, " \t\r\n"); err != nil && !bytes.ContainsAny(t[:1], `{["-0123456789tfn`) {
		// Not JSON at all (a database, an image, a gzip file): say what
		// it starts with rather than which character is invalid.
		return "", "", fmt.Errorf("replay is not JSON: it starts with %q; expected a JSON object", t[:min(len(t), 16)])
	}
	if err != nil {
		return "", "", readError(err, "replay")
	}
	if tok.Kind() != '{' {
		return "", "", fmt.Errorf("replay is a JSON %s; expected a JSON object", kindName(tok.Kind()))
	}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return "", "", readError(err, "replay")
		}
		k := name.String()
		if k != "format" && k != "protocol" {
			if err := dec.SkipValue(); err != nil {
				return "", "", readError(err, "replay")
			}
			continue
		}
		val, err := dec.ReadToken()
		if err != nil {
			return "", "", readError(err, "replay")
		}
		if val.Kind() != '"' {
			return "", "", fmt.Errorf("replay %q is a JSON %s; expected a string", k, kindName(val.Kind()))
		}
		return k, val.String(), nil
	}
	if _, err := dec.ReadToken(); err != nil { // the closing '}', or why it is missing
		return "", "", readError(err, "replay")
	}
	return "", "", nil
}

// checkStart refuses, with a message naming them, the two starts a JSON
// parser would explain badly: a UTF-8 byte order mark (EF BB BF, which RFC
// 8259 section 8.1 forbids) and no JSON text at all.
func checkStart(data []byte) error {
	if bytes.HasPrefix(data, utf8BOM) {
		return errors.New("replay starts with a UTF-8 byte order mark; expected a JSON object")
	}
	if len(bytes.TrimLeft(data, " \t\r\n")) == 0 {
		return errors.New("replay is empty; expected a JSON object")
	}
	return nil
}

// checkSyntax reads the whole of data as one JSON value with jsontext's
// checks (grammar, UTF-8, no duplicate keys) and returns the first problem,
// as readError words it. CheckReplay calls it before blaming the "format"
// value, so that a second "format" key is named as the duplicate it is.
func checkSyntax(data []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if _, err := dec.ReadValue(); err != nil {
		return readError(err, "replay")
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			return errors.New("reading replay: more than one JSON value; expected one JSON object")
		}
		return readError(err, "replay")
	}
	return nil
}

// kindName names a JSON kind for an error message.
func kindName(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "boolean"
	case '"':
		return "string"
	case '0':
		return "number"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "value"
}

// readError rewrites a decoding error of go-json-experiment/json so that a
// duplicate or unknown key is named with where it is, in the report's
// terms; other errors keep the library's text (which carries a JSON
// pointer, RFC 6901).
func readError(err error, what string) error {
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) && errors.Is(syn.Err, jsontext.ErrDuplicateName) {
		return fmt.Errorf("reading %s: key %q appears twice %s; a replay must give each key once (readers could take either value)",
			what, syn.JSONPointer.LastToken(), where(syn.JSONPointer.Parent()))
	}
	var sem *json.SemanticError
	if errors.As(err, &sem) && errors.Is(sem.Err, json.ErrUnknownName) {
		return fmt.Errorf("reading %s: unknown key %q %s; expected only the fields docs/replays.md defines for %s",
			what, sem.JSONPointer.LastToken(), where(sem.JSONPointer.Parent()), whereObject(sem.JSONPointer.Parent()))
	}
	var ptr jsontext.Pointer
	switch {
	case syn != nil:
		ptr = syn.JSONPointer
	case sem != nil:
		ptr = sem.JSONPointer
	}
	if ptr != "" {
		return fmt.Errorf("reading %s: %s: %v", what, strings.TrimPrefix(strings.TrimPrefix(where(ptr), "in "), "at "), err)
	}
	return fmt.Errorf("reading %s: %v", what, err)
}

// where renders a JSON pointer to an object as "at the top level", "in
// event 9", "in event 11, bids[0]" or "in results.ranking[0]".
func where(p jsontext.Pointer) string {
	var toks []string
	for t := range p.Tokens() {
		toks = append(toks, t)
	}
	if len(toks) == 0 {
		return "at the top level"
	}
	if len(toks) >= 2 && toks[0] == "events" && isIndex(toks[1]) {
		s := "in event " + toks[1]
		if len(toks) > 2 {
			s += ", " + fieldPath(toks[2:])
		}
		return s
	}
	return "in " + fieldPath(toks)
}

// whereObject names the kind of object at p for the unknown-key message:
// "the top level", "an event", "config", and so on.
func whereObject(p jsontext.Pointer) string {
	var toks []string
	for t := range p.Tokens() {
		if !isIndex(t) {
			toks = append(toks, t)
		}
	}
	switch {
	case len(toks) == 0:
		return "the top level"
	case len(toks) == 1 && toks[0] == "events":
		return "an event"
	}
	return strings.Join(toks, ".")
}

// fieldPath joins pointer tokens as Difference.Field names fields:
// "results.ranking[0]", "bids[2]".
func fieldPath(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		if isIndex(t) {
			b.WriteString("[" + t + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return b.String()
}

// isIndex reports whether a pointer token is an array index.
func isIndex(t string) bool {
	_, err := strconv.ParseUint(t, 10, 32)
	return err == nil
}
