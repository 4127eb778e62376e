package main

import (
	"github.com/schollz/progressbar/v3"
)

// progress returns a progress callback drawing a bar on stderr when it is
// a terminal (nil otherwise: no output to a pipe or file), described by
// desc and counting unit, and the function that finishes the bar.
func (a *app) progress(desc, unit string) (update func(done, total int64), finish func()) {
	if !isTerminal(a.errOut) {
		return nil, func() {}
	}
	var bar *progressbar.ProgressBar
	update = func(done, total int64) {
		if bar == nil {
			bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(a.errOut),
				progressbar.OptionSetDescription(desc), progressbar.OptionShowCount(),
				progressbar.OptionShowIts(), progressbar.OptionSetItsString(unit),
				progressbar.OptionClearOnFinish())
		}
		bar.Set64(done)
	}
	return update, func() {
		if bar != nil {
			bar.Finish()
		}
	}
}
