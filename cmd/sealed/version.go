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
			v, goVersion := "(devel)", "unknown"
			if bi, ok := debug.ReadBuildInfo(); ok {
				goVersion = bi.GoVersion
				if bi.Main.Version != "" {
					v = bi.Main.Version
				}
			}
			if a.json {
				return a.printJSON(map[string]string{"version": v, "go": goVersion})
			}
			_, err := fmt.Fprintf(a.out, "sealed %s (%s)\n", v, goVersion)
			return err
		},
	}
}
