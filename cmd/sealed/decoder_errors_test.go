package main

import "testing"

// TestPlainDecoderError: the decoder errors of go-json-experiment/json
// reach the user without a Go type's name, and say what a value should be.
// The inputs are the library's own texts (with the prefix verify's
// readError gives them), seen on replays whose number had an exponent,
// did not fit, or whose decimal string did not parse.
func TestPlainDecoderError(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`reading auction replay: event 18, amount: cannot unmarshal JSON number 60e0 into Go int within "/events/18/amount": invalid syntax`,
			`reading auction replay: event 18, amount: the value at /events/18/amount is the JSON number 60e0; expected an integer written with digits only (no fraction or exponent)`},
		{`reading engine replay: config.seed: cannot unmarshal JSON number 1e400 into Go int64 within "/config/seed": invalid syntax`,
			`reading engine replay: config.seed: the value at /config/seed is the JSON number 1e400; expected an integer written with digits only (no fraction or exponent)`},
		{`reading engine replay: results.points[0]: unable to unmarshal JSON number 28000000000000000000000000 into Go int within "/results/points/0": value out of range`,
			`reading engine replay: results.points[0]: the value at /results/points/0, the JSON number 28000000000000000000000000, is out of range for the field`},
		{`reading auction replay: results.pot: unable to unmarshal JSON string into Go apd.Decimal within "/results/pot": parse mantissa: abc`,
			`reading auction replay: results.pot: the value at /results/pot is not a decimal (parse mantissa: abc); expected a decimal number in a JSON string, such as "10.50"`},
		{`reading auction replay: results.pot: cannot unmarshal JSON number into Go *apd.Decimal within "/results/pot"`,
			`reading auction replay: results.pot: the value at /results/pot is a JSON number; expected a decimal number in a JSON string, such as "10.50"`},
		{`reading auction replay: event 9, amount: cannot unmarshal JSON string into Go int within "/events/9/amount"`,
			`reading auction replay: event 9, amount: the value at /events/9/amount is a JSON string; expected a JSON number`},
		{`json: cannot unmarshal string into Go struct field Body.commit of type int64`,
			`commit is a JSON string; expected a JSON number`},
	} {
		if got := plainDecoderError(c.in); got != c.want {
			t.Errorf("plainDecoderError(%q)\n = %q\nwant %q", c.in, got, c.want)
		}
	}
}
