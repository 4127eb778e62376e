package main

import (
	"regexp"
	"strings"
)

// Decoder error texts of encoding/json (v1) and go-json-experiment/json
// (jsontext), which reach the CLI through the library errors that wrap
// them with %v: plainDecoderError rewords them.
var (
	// v1: json: cannot unmarshal string into Go struct field Body.commit of type int64
	jsonV1Type = regexp.MustCompile(`json: cannot unmarshal (\w+) into Go (?:struct field (\S+) of type|value of type) (\S+)`)
	// v2: json: cannot unmarshal JSON string into Go []auction.Event within
	// "/events" (the library picks "cannot" or "unable to" at random, so
	// that no one matches its text; this rewording must)
	// "/events"; a number that does not fit the type carries its text and
	// a cause: unable to unmarshal JSON number 60e0 into Go int within
	// "/events/18/amount": invalid syntax; a string a type's UnmarshalText
	// refused carries that method's error: ... into Go apd.Decimal within
	// "/results/pot": parse mantissa: abc)
	jsonV2Type = regexp.MustCompile(`(?:json: )?(?:cannot|unable to) unmarshal JSON (\w+)(?: (-?[0-9][0-9A-Za-z.+-]*))? into Go (\S+)(?: within "([^"]*)")?(?:: (.*))?$`)
	// json: unknown field "x"
	jsonUnknown = regexp.MustCompile(`json: unknown field ("[^"]*")`)
	// the library names as a prefix: "jsontext: ", "json: ", at the start
	// of the message or of a part of it (never "bad.json: ", a file name)
	libraryPrefix = regexp.MustCompile(`(^|: )(?:jsontext|json): `)
)

// plainDecoderError rewrites the decoder errors inside msg in the user's
// terms, without naming a library or a Go type: "json: cannot unmarshal
// string into Go struct field Body.commit of type int64" becomes "commit
// is a JSON string; expected a JSON number", "jsontext: invalid character
// ','" becomes "invalid character ','". Other text is left alone.
func plainDecoderError(msg string) string {
	msg = jsonV1Type.ReplaceAllStringFunc(msg, func(m string) string {
		g := jsonV1Type.FindStringSubmatch(m)
		what := "the value"
		if g[2] != "" {
			field := g[2]
			if i := strings.IndexByte(field, '.'); i >= 0 {
				field = field[i+1:]
			}
			what = strings.ToLower(field)
		}
		return what + " is a JSON " + jsonKindWord(g[1]) + "; expected " + goTypeAsJSON(g[3])
	})
	msg = jsonV2Type.ReplaceAllStringFunc(msg, func(m string) string {
		g := jsonV2Type.FindStringSubmatch(m)
		kind, number, goType, ptr, cause := g[1], g[2], g[3], g[4], g[5]
		what := "the value"
		if ptr != "" {
			what = "the value at " + ptr
		}
		want := goTypeAsJSON(goType)
		switch {
		case number != "" && cause == "value out of range":
			return what + ", the JSON number " + number + ", is out of range for the field"
		case number != "" && isIntegerType(goType):
			return what + " is the JSON number " + number + "; expected an integer written with digits only (no fraction or exponent)"
		case kind == "string" && isDecimalType(goType) && cause != "":
			return what + " is not a decimal (" + cause + "); expected " + want
		}
		m = what + " is a JSON " + jsonKindWord(kind) + "; expected " + want
		if cause != "" {
			m += ": " + cause
		}
		return m
	})
	msg = jsonUnknown.ReplaceAllString(msg, "unknown field $1")
	return libraryPrefix.ReplaceAllString(msg, "$1")
}

// jsonKindWord names a JSON kind as the decoders write it ("string",
// "number", "object", "array", "bool", "null").
func jsonKindWord(k string) string {
	if k == "bool" {
		return "boolean"
	}
	return k
}

// goTypeAsJSON says which JSON value a Go type holds: "a JSON number" for
// int64, "a JSON array" for []T, and so on.
func goTypeAsJSON(t string) string {
	t = strings.TrimLeft(t, "*")
	switch {
	case strings.HasPrefix(t, "[]") || strings.HasPrefix(t, "["):
		return "a JSON array"
	case strings.HasPrefix(t, "map["):
		return "a JSON object"
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint") || strings.HasPrefix(t, "float"):
		return "a JSON number"
	case t == "string":
		return "a JSON string"
	case t == "bool":
		return "true or false"
	case isDecimalType(t):
		return `a decimal number in a JSON string, such as "10.50"`
	}
	return "a JSON object"
}

// isIntegerType reports whether the Go type t (as the decoder names it)
// is an integer type.
func isIntegerType(t string) bool {
	t = strings.TrimLeft(t, "*")
	return strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint")
}

// isDecimalType reports whether the Go type t is apd.Decimal, which a
// replay and a ledger body hold as a decimal in a JSON string.
func isDecimalType(t string) bool {
	return strings.TrimLeft(t, "*") == "apd.Decimal"
}
