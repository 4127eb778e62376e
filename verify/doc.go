// Package verify joins the other packages to answer an auditor's and a
// referee's questions from public data alone.
//
// For game servers' seeds: does a replay's revealed seed match its
// commitment, and do the values, pools, events and results the server
// claimed follow from that seed and the rules? CheckReplay re-derives
// everything derivable, re-simulates every event through rules/auction
// (Blind Auction, docs/rules/000_4176825fe06aef2b.txt, auction-0.2) or
// rules/bargain (Negotiation Games, docs/rules/002_3f997448278f2b5a.txt), and
// reports each difference from the claim as (event index, field, claimed,
// derived). CheckResult holds a result entry's replay to the ledger: the
// seed committed for that match before the result, its reveal and its
// config. Replay formats are specified in docs/replays.md. Replays are
// read strictly (docs/replays.md, "Reading a replay"): one JSON object in
// UTF-8, no byte order mark, no key given twice, no key the format does not
// define. A one-pass scanner reads the replays it can (no reflection);
// anything else, and every error, goes through
// github.com/go-json-experiment/json, which the scanner is fuzzed against.
//
// For players' secret actions (docs/rules/004_1fc38c7a40af5155.txt, "Secret
// Information"): LoadHistory reads a ledger's commit, reveal and edit
// entries, JudgeActions judges them with rules/secret, AuditReusedSalts
// searches pending actions whose salt was revealed earlier, and
// ConcludeLots concludes a week's lots and Hands with rules/lots. The
// readings of ambiguous rules (S1-S8) are in docs/secret-actions.md.
package verify
