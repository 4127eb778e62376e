package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func init() { register(newVersionCmd) }

// newVersionCmd builds `sealed version`: the module version and Go version.
func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of sealed",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, goVersion := buildVersion()
			if a.json {
				return a.printJSON(map[string]string{"version": v, "go": goVersion})
			}
			_, err := fmt.Fprintf(a.out, "sealed %s (%s)\n", v, goVersion)
			return err
		},
	}
}

// buildVersion is the module version of the binary ("(devel)" for a build
// from a checkout) and the Go version that built it, from the build info.
func buildVersion() (version, goVersion string) {
	version, goVersion = "(devel)", "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
	}
	return version, goVersion
}

// versionString is what 'sealed --version' prints after "sealed ": the
// same as 'sealed version', "v1.2.3 (go1.26.0)".
func versionString() string {
	v, g := buildVersion()
	return v + " (" + g + ")"
}
