package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ebref/ebref/caps"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
)

func runCaps(e *env, args []string) int {
	const synopsis = "[--profile P,Q...] [--profile-file F...] [--json | --export] | --list\n\nPrints what the driver reports on each hardware profile named: D3D12DDI_D3D12_OPTIONS_DATA_0089\n(member names as in the DDI, each with why it has its value) and the layouts a\nBarrier on each command-list type may name. --list names the profiles.\n--export prints one profile as a profile file (docs/hardware.md \"Profile\nfiles\"), to start your own GPU's from."
	fs := flag.NewFlagSet("caps", flag.ContinueOnError)
	profile := fs.String("profile", "discrete", "comma-separated hardware profiles (see --list); --json prints an array for several")
	profileFiles := addProfileFileFlag(fs)
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	export := fs.Bool("export", false, "print the profile's file instead (one profile)")
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
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	list0 := *profile
	if len(*profileFiles) > 0 && !set["profile"] {
		list0 = "" // the files' profiles alone
	}
	names, err := selectProfiles(list0, *profileFiles)
	if err != nil {
		return profilesError(e, fs, synopsis, err)
	}
	if *export {
		if *asJSON {
			return usageError(e, fs, synopsis, "--export prints a profile file; it does not take --json")
		}
		if len(names) != 1 {
			return usageError(e, fs, synopsis, "--export prints one profile's file; %d are named", len(names))
		}
		p, _ := hwmodel.LookupProfile(names[0])
		if _, err := e.stdout.Write(p.MarshalFile()); err != nil {
			return cannotError(e, "caps", err)
		}
		return 0
	}
	var reports []caps.Report
	for _, n := range names {
		p, _ := hwmodel.LookupProfile(n)
		reports = append(reports, caps.NewReport(p))
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		var v any = reports
		if len(reports) == 1 {
			v = reports[0] // one profile: its object, as it always was
		}
		if err := enc.Encode(v); err != nil {
			return cannotError(e, "caps", err)
		}
		return 0
	}
	for i, r := range reports {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		writeCaps(e.stdout, r)
	}
	return 0
}

// writeCaps prints one profile's report.
func writeCaps(w io.Writer, r caps.Report) {
	fmt.Fprintf(w, "Profile %s: %s.\n\nD3D12DDI_D3D12_OPTIONS_DATA_0089\n", r.Profile, strings.TrimSuffix(r.Description, "."))
	width := 0
	for _, m := range r.Options {
		width = max(width, len(m.Name))
	}
	for _, m := range r.Options {
		fmt.Fprintf(w, "  %-*s %-18s %s\n", width, m.Name, m.Value, m.Why)
	}
	fmt.Fprintln(w, "\nLayouts a Barrier may name, by command-list type")
	for _, q := range r.Queues {
		fmt.Fprintf(w, "  %-14s %s\n", q.Type, strings.Join(ddi.LayoutNames(q.Layouts), ", "))
	}
}
