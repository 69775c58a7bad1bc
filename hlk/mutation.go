package hlk

import (
	"context"
	"fmt"
	"io"
)

// MutationRow is what one injected fault did to a run: how many cases
// that pass without it fail with it, and one of them.
type MutationRow struct {
	Fault   string `json:"fault"`
	Caught  int    `json:"caught"`
	Example string `json:"example,omitempty"`
}

// Mutation proves the suites: it runs the config without a fault, then
// once per fault the driver offers, and counts the cases each fault turns
// from conformant to not. A fault no case catches is a hole in the suites.
func Mutation(ctx context.Context, c Config) (*Report, []MutationRow, error) {
	if c.Driver == nil {
		c.Driver = Reference
	}
	c.Inject = ""
	base, err := Execute(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	ok := map[string]bool{}
	for i := range base.Cases {
		k := base.Cases[i].Path() + "@" + base.Cases[i].Profile
		ok[k] = base.Cases[i].Status.Conformant()
	}
	var rows []MutationRow
	for _, f := range c.Driver.Faults() {
		fc := c
		fc.Inject, fc.Progress = f, nil
		rep, err := Execute(ctx, fc)
		if err != nil {
			return nil, nil, err
		}
		row := MutationRow{Fault: f}
		for i := range rep.Cases {
			cr := &rep.Cases[i]
			if ok[cr.Path()+"@"+cr.Profile] && !cr.Status.Conformant() {
				if row.Caught == 0 {
					row.Example = fmt.Sprintf("%s on %s", cr.Path(), cr.Profile)
				}
				row.Caught++
			}
		}
		rows = append(rows, row)
	}
	return base, rows, nil
}

// AllCaught reports whether every fault was caught by some case.
func AllCaught(rows []MutationRow) bool {
	for _, r := range rows {
		if r.Caught == 0 {
			return false
		}
	}
	return len(rows) > 0
}

// WriteMutation prints the fault → cases-failed table.
func WriteMutation(w io.Writer, rows []MutationRow) error {
	fmt.Fprintf(w, "%-22s %8s  %s\n", "fault", "caught", "for example")
	for _, r := range rows {
		ex := r.Example
		if r.Caught == 0 {
			ex = "NOT CAUGHT: no case fails with this fault"
		}
		fmt.Fprintf(w, "%-22s %8d  %s\n", r.Fault, r.Caught, ex)
	}
	verdict := "every fault is caught"
	if !AllCaught(rows) {
		verdict = "some fault is not caught: the suites have a hole"
	}
	_, err := fmt.Fprintln(w, verdict)
	return err
}
