package web

// maxPageRows bounds each long list a replay page shows (differences,
// auction items, table talk): a replay is at most ledger.MaxReplaySize
// bytes, and its page stays a few megabytes at most whatever it holds.
// The JSON report (/api/v1/replays/{id}/report) lists every difference.
const maxPageRows = 1000

// bound cuts the view's long lists to maxPageRows, counting what it
// leaves out.
func (v *replayView) bound() {
	v.boundReport()
	if a := v.Auction; a != nil {
		if n := len(a.Items); n > maxPageRows {
			a.Items, a.ItemsOmitted = a.Items[:maxPageRows], n-maxPageRows
		}
		if n := len(a.Talk); n > maxPageRows {
			a.Talk, a.TalkOmitted = a.Talk[:maxPageRows], n-maxPageRows
		}
	}
}

// boundReport cuts the report's differences the page lists to
// maxPageRows.
func (v *replayView) boundReport() {
	if v.Report != nil {
		d := v.Report.Differences
		v.DiffsShown = d[:min(len(d), maxPageRows)]
		v.DiffsOmitted = len(d) - len(v.DiffsShown)
	}
}
