package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"github.com/ebref/ebref/caps"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
)

func runCaps(e *env, args []string) int {
	const synopsis = "[--profile P] [--json] | --list\n\nPrints what the driver reports on a hardware profile: D3D12DDI_D3D12_OPTIONS_DATA_0089\n(member names as in the DDI, each with why it has its value) and the layouts a\nBarrier on each command-list type may name. --list names the profiles."
	fs := flag.NewFlagSet("caps", flag.ContinueOnError)
	profile := fs.String("profile", "discrete", "hardware profile (see --list)")
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	list := fs.Bool("list", false, "list the hardware profiles and stop")
	pos, code, ok := parseFlags(e, fs, synopsis, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return usageError(e, fs, synopsis, "unexpected argument %q", pos[0])
	}
	if *list {
		for _, p := range hwmodel.Profiles() {
			fmt.Fprintf(e.stdout, "%-10s %s\n", p.Name, p.Description)
		}
		return 0
	}
	p, err := hwmodel.LookupProfile(*profile)
	if err != nil {
		return usageError(e, fs, synopsis, "%v", err)
	}
	r := caps.NewReport(p)
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return inputError(e, "caps", err)
		}
		return 0
	}
	fmt.Fprintf(e.stdout, "Profile %s: %s.\n\nD3D12DDI_D3D12_OPTIONS_DATA_0089\n", r.Profile, r.Description)
	width := 0
	for _, m := range r.Options {
		width = max(width, len(m.Name))
	}
	for _, m := range r.Options {
		fmt.Fprintf(e.stdout, "  %-*s %-18s %s\n", width, m.Name, m.Value, m.Why)
	}
	fmt.Fprintln(e.stdout, "\nLayouts a Barrier may name, by command-list type")
	for _, q := range r.Queues {
		fmt.Fprintf(e.stdout, "  %-14s %s\n", q.Type, strings.Join(ddi.LayoutNames(q.Layouts), ", "))
	}
	return 0
}
