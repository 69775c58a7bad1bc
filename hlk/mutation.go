package hlk

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
)

// MinCatches is how many cases must catch a fault by safety on every
// profile where the fault changes some case's packets: one catch is a thin
// one (a case edited for another reason can lose it), and a catch by the
// reference's cost record alone judges no other driver.
const MinCatches = 3

// MutationRow is what one injected fault did to a run: how many cases
// that pass without it fail with it, how many of those by safety (a
// hazard, wrong bytes, a validation message, a fault, a crash: not only
// costing more than the reference's record), and one of them, in all and
// per profile.
type MutationRow struct {
	Fault     string            `json:"fault"`
	Caught    int               `json:"caught"`
	Safety    int               `json:"caught_by_safety"`
	Example   string            `json:"example,omitempty"`
	ByProfile []MutationProfile `json:"by_profile"`
}

// MutationProfile is a fault's effect on one profile: the cases it turns
// from conformant to not (by safety, and in all), and whether it changed
// any case's packets (a fault that changes none there has nothing to
// catch).
type MutationProfile struct {
	Profile string `json:"profile"`
	Caught  int    `json:"caught"`
	Safety  int    `json:"caught_by_safety"`
	Changed bool   `json:"changed_packets"`
}

// Fragile lists the profiles where the fault changes packets but fewer
// than MinCatches cases catch it by safety: its catch there is thin.
func (r MutationRow) Fragile() []string {
	var out []string
	for _, p := range r.ByProfile {
		if p.Changed && p.Safety < MinCatches {
			out = append(out, p.Profile)
		}
	}
	return out
}

// Mutation proves the suites: it runs the config without a fault, then
// once per fault the driver offers, and counts, per profile, the cases each
// fault turns from conformant to not. A fault no case catches is a hole in
// the suites; one fewer than MinCatches cases catch on a profile where it
// changes the packets is a fragile catch.
func Mutation(ctx context.Context, c Config) (*Report, []MutationRow, error) {
	if c.Driver == nil {
		return nil, nil, errNoDriver
	}
	c.Inject = ""
	// Progress counts over every pass: the run without a fault, then one
	// per fault.
	faults := c.Driver.Faults()
	progress := c.Progress
	pass := 0
	if progress != nil {
		c.Progress = func(done, total int, cr *CaseResult) {
			progress(pass*total+done, (1+len(faults))*total, cr)
		}
	}
	base, err := Execute(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	type baseline struct {
		ok      bool
		packets string
	}
	was := map[string]baseline{}
	for i := range base.Cases {
		cr := &base.Cases[i]
		was[cr.Path()+"@"+cr.Profile] = baseline{cr.Status.Conformant(), cr.Packets}
	}
	var rows []MutationRow
	for _, f := range faults {
		pass++
		fc := c
		fc.Inject = f
		rep, err := Execute(ctx, fc)
		if err != nil {
			return nil, nil, err
		}
		row := MutationRow{Fault: f}
		byProfile := map[string]*MutationProfile{}
		for _, p := range rep.Environment.Profiles {
			row.ByProfile = append(row.ByProfile, MutationProfile{Profile: p})
		}
		for i := range row.ByProfile {
			byProfile[row.ByProfile[i].Profile] = &row.ByProfile[i]
		}
		for i := range rep.Cases {
			cr := &rep.Cases[i]
			b, mp := was[cr.Path()+"@"+cr.Profile], byProfile[cr.Profile]
			if mp == nil {
				continue
			}
			if cr.Packets != b.packets {
				mp.Changed = true
			}
			if b.ok && !cr.Status.Conformant() {
				// The first safety catch is the example; a cost catch
				// only when there is none.
				if row.Caught == 0 || row.Safety == 0 && !cr.Costlier {
					row.Example = fmt.Sprintf("%s on %s", cr.Path(), cr.Profile)
				}
				row.Caught++
				mp.Caught++
				if !cr.Costlier {
					row.Safety++
					mp.Safety++
				}
			}
		}
		rows = append(rows, row)
	}
	return base, rows, nil
}

// AllCaught reports whether every fault was caught by some case, by
// safety: a fault only the cost record catches is not caught.
func AllCaught(rows []MutationRow) bool {
	for _, r := range rows {
		if r.Safety == 0 {
			return false
		}
	}
	return len(rows) > 0
}

// NoneFragile reports whether every fault is caught by safety by at least
// MinCatches cases on every profile where it changes the packets.
func NoneFragile(rows []MutationRow) bool {
	return !slices.ContainsFunc(rows, func(r MutationRow) bool { return len(r.Fragile()) > 0 })
}

// WriteMutation prints the fault → cases-failed table: in all, by safety,
// and per profile by safety, a thin catch (fewer than MinCatches) marked.
func WriteMutation(w io.Writer, rows []MutationRow) error {
	var profiles []string
	if len(rows) > 0 {
		for _, p := range rows[0].ByProfile {
			profiles = append(profiles, p.Profile)
		}
	}
	fmt.Fprintf(w, "%-24s %6s %6s", "fault", "caught", "safety")
	for _, p := range profiles {
		fmt.Fprintf(w, " %10s", p)
	}
	fmt.Fprintln(w, "  for example")
	for _, r := range rows {
		ex := r.Example
		switch {
		case r.Caught == 0:
			ex = "NOT CAUGHT: no case fails with this fault"
		case r.Safety == 0:
			ex = "NOT CAUGHT BY SAFETY: only the cost record catches it, e.g. " + ex
		}
		fmt.Fprintf(w, "%-24s %6d %6d", r.Fault, r.Caught, r.Safety)
		for _, p := range r.ByProfile {
			cell := fmt.Sprint(p.Safety)
			switch {
			case !p.Changed:
				cell = "-" // the fault changes no packet there
			case p.Safety < MinCatches:
				cell += "!"
			}
			fmt.Fprintf(w, " %10s", cell)
		}
		fmt.Fprintf(w, "  %s\n", ex)
	}
	var verdict string
	switch {
	case !AllCaught(rows):
		verdict = "some fault is not caught by safety: the suites have a hole"
	case !NoneFragile(rows):
		var weak []string
		for _, r := range rows {
			if f := r.Fragile(); len(f) > 0 {
				weak = append(weak, fmt.Sprintf("%s on %s", r.Fault, strings.Join(f, ", ")))
			}
		}
		verdict = fmt.Sprintf("thin: fewer than %d cases catch %s by safety (!)", MinCatches, strings.Join(weak, "; "))
	default:
		verdict = fmt.Sprintf("every fault is caught by safety, by at least %d cases on every profile where it changes the packets (profile columns count safety catches; - : it changes none)", MinCatches)
	}
	_, err := fmt.Fprintln(w, verdict)
	return err
}
