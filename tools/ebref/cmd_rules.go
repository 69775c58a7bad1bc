package main

import (
	"encoding/json"
	"flag"

	"github.com/ebref/ebref/ddi"
)

func runRules(e *env, args []string) int {
	const synopsis = "[--json]\n\nPrints the spec's rule tables as ebref implements them: umbrella sync scopes,\nper-queue layouts/accesses/syncs, layout -> accesses, access -> syncs, and\nlegacy state equivalents. docs/errata.md lists where they differ from the spec."
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	pos, code, ok := parseFlags(e, fs, synopsis, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return usageError(e, fs, synopsis, "unexpected argument %q", pos[0])
	}
	doc := ddi.Rules()
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			return cannotError(e, "rules", err)
		}
		return 0
	}
	if err := doc.WriteText(e.stdout); err != nil {
		return cannotError(e, "rules", err)
	}
	return 0
}
