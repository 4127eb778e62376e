package main

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestRngValuesParse(t *testing.T) {
	var got *rngValuesOptions
	a := &app{in: strings.NewReader(""), out: &bytes.Buffer{}, errOut: &bytes.Buffer{}}
	c := rngValuesCmd(a, func(_ *app, o *rngValuesOptions) error { got = o; return nil })
	c.SetArgs([]string{"--seed", "ab", "--players", "8", "--items", "3", "--min", "0", "--max", "7", "--contribution", "0:lucky 7", "--beacon-file", "r.json"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*got, rngValuesOptions{Seed: "ab", Players: 8, Items: 3, Min: 0, Max: 7,
		Inputs: matchInputFlags{Contributions: []string{"0:lucky 7"}, BeaconFile: "r.json"}}) {
		t.Errorf("options %+v", *got)
	}
}
