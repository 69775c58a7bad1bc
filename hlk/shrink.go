package hlk

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/ebref/ebref/ddi/debug"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
)

// Shrinking: a failing case reduced to a minimal scenario a user can attach
// to a bug report. Whole resources first (a declaration with every line
// naming it, a view bound beside others leaving its command), then delta
// debugging (Zeller's ddmin) over its lines — statements, resource
// declarations, list commands, barriers — then over
// the words of each line that is left (a texture's mips and slices, a
// barrier's subresources, flags), keeping a reduction only while the case
// still fails the same way on the same profile: the same first kind of
// failure (an expectation of the same kind, a hazard of the same kind, a
// fault, an error of the same ID) and, when a fault of the driver's causes
// it, still passing without the fault.
//
// A random program's negative form ("#drop:" lines, `expect detected`) is
// reduced as a pair: the reduction must still be missed by the judge with
// the barrier dropped and still conform with it, and the work on the
// dropped barrier's resource stays, so the shrunk case still orders the
// accesses the barrier was for.

// dropMark starts the lines a negative form left out.
const dropMark = "#drop:"

// Shrink reduces a failing single-case scenario. It returns the reduced
// text, or an error when the text does not fail on the profile to begin
// with. It stops early, returning the smallest failing text so far, when
// ctx is done.
func Shrink(ctx context.Context, d Driver, name, text string, p *hwmodel.Profile, fault string) (string, error) {
	if d == nil {
		return "", errNoDriver
	}
	s := &shrinker{ctx: ctx, d: d, name: name, p: p, fault: fault}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	s.protect(lines)
	sig, ok := s.signature(lines)
	if !ok {
		return "", fmt.Errorf("hlk: shrink %s: the case does not fail on %s", name, p.Name)
	}
	s.sig = sig
	// Comments go first (the drop marks stay).
	lines = slices.DeleteFunc(lines, func(l string) bool {
		t := strings.TrimSpace(l)
		return t == "" || strings.HasPrefix(t, "#") && !strings.HasPrefix(t, dropMark)
	})
	if !s.fails(lines) {
		return "", fmt.Errorf("hlk: shrink %s: the case fails only with its comments", name)
	}
	for {
		n := len(strings.Join(lines, "\n"))
		lines = s.blocks(s.ddmin(s.blocks(s.resources(lines))))
		lines = s.words(lines)
		if len(strings.Join(lines, "\n")) == n || s.ctx.Err() != nil || s.runs >= maxShrinkRuns {
			return strings.Join(lines, "\n") + "\n", nil
		}
	}
}

type shrinker struct {
	ctx     context.Context
	d       Driver
	name    string
	p       *hwmodel.Profile
	fault   string
	sig     string
	keep    *regexp.Regexp // work on the dropped barrier's resource
	negated bool
	errs    map[string]bool // the original's unexpected errors
	runs    int
}

// maxShrinkRuns bounds the work of one shrink.
const maxShrinkRuns = 20000

// protect notes what a negative form must keep.
func (s *shrinker) protect(lines []string) {
	var names []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, dropMark) {
			continue
		}
		s.negated = true
		f := strings.Fields(strings.TrimPrefix(t, dropMark))
		for i, w := range f {
			if (w == "texture" || w == "buffer") && i+1 < len(f) {
				names = append(names, regexp.QuoteMeta(f[i+1]))
			}
		}
	}
	if len(names) > 0 {
		s.keep = regexp.MustCompile(`^\s+[a-z-]+ .*\b(` + strings.Join(names, "|") + `)\b`)
	}
}

// removable reports whether a line may go. The debug layer stays: it
// keeps a reduction honest about layouts across submissions; so do the
// fence signals and waits, without which two queues race whatever the
// barriers say.
func (s *shrinker) removable(l string) bool {
	t := strings.TrimSpace(l)
	w, _, _ := strings.Cut(t, " ")
	if strings.HasPrefix(t, dropMark) || t == "debug" || w == "signal" || w == "wait" {
		return false
	}
	if s.keep != nil && s.keep.MatchString(l) && !isBarrierLine(t) {
		return false
	}
	return true
}

func isBarrierLine(t string) bool {
	w, _, _ := strings.Cut(t, " ")
	switch w {
	case "barrier", "barrier-0088", "call", "call-0088", "barriers", "global", "texture", "buffer", "ranged", "end",
		"resource-barrier", "resource-barriers", "transition", "uav", "aliasing":
		return true
	}
	return false
}

// run runs a text; ok is false when it does not parse as one case.
func (s *shrinker) run(lines []string) (Result, bool) {
	s.runs++
	cases, err := scenario.Parse(s.name, strings.Join(lines, "\n")+"\n", nil)
	if err != nil || len(cases) != 1 {
		return Result{}, false
	}
	return RunContext(s.ctx, s.d, cases[0], s.p, s.fault), true
}

// signature is the first kind of failure of a text (ok false if it passes
// or does not parse). A negative form fails when the judge misses the drop
// while the positive form conforms.
func (s *shrinker) signature(lines []string) (string, bool) {
	r, ok := s.run(lines)
	if !ok || r.Status != Fail {
		return "", false
	}
	if s.negated {
		// Missed, while the barrier ran: the GPU did something else
		// without it (a list never executed would miss any drop).
		for _, o := range r.Observed {
			if o.Severity == debug.SeverityError && !o.expected {
				return "", false // the drop made the list invalid: nothing ran
			}
		}
		for _, e := range r.Expectations {
			if !e.OK && strings.HasPrefix(e.Text, "detected") {
				pr, ok := s.run(positiveForm(lines))
				return "missed", ok && pr.Status == Pass && pr.Counters != r.Counters
			}
		}
		return "", false
	}
	// A reduction may not fail for a new reason: an error the original
	// did not have (a resource it no longer declares, say).
	errs := map[string]bool{}
	for _, o := range r.Observed {
		if o.Severity == debug.SeverityError && !o.expected {
			errs[fmt.Sprint(o.ID)] = true
		}
	}
	if s.errs == nil {
		s.errs = errs
	} else {
		for id := range errs {
			if !s.errs[id] {
				return "", false
			}
		}
	}
	for _, e := range r.Expectations {
		if !e.OK {
			// The kind of expectation and the first words of what was
			// found: "differs from", not "was not created".
			w, _, _ := strings.Cut(e.Text, " ")
			f := strings.Fields(e.Detail)
			return "expect " + w + ": " + strings.Join(f[:min(2, len(f))], " "), true
		}
	}
	if len(r.Faults) > 0 {
		return "fault", true
	}
	for _, o := range r.Observed {
		if o.Severity == debug.SeverityError && !o.expected {
			return fmt.Sprintf("error %d", o.ID), true
		}
	}
	for _, f := range r.Failures {
		if strings.Contains(f, "WORK packets") { // work that touched other bytes than the program says (touch.go)
			return "touches", true
		}
	}
	if len(r.Hazards) > 0 {
		return "hazard " + r.Hazards[0].Kind.String(), true
	}
	return "fail", true
}

// positiveForm is a negative form with its barrier back.
func positiveForm(lines []string) []string {
	out := []string{"debug"}
	for _, l := range lines {
		if i := strings.Index(l, dropMark); i >= 0 {
			l = l[:i] + l[i+len(dropMark):]
		}
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "expect detected"); ok {
			l = "expect reference" + rest
		}
		out = append(out, l)
	}
	return out
}

func (s *shrinker) fails(lines []string) bool {
	if s.ctx.Err() != nil || s.runs >= maxShrinkRuns {
		return false
	}
	sig, ok := s.signature(lines)
	if !ok || sig != s.sig {
		return false
	}
	// A failure a fault causes stays the fault's: the reduction still
	// passes without it.
	if s.fault != "" {
		cases, err := scenario.Parse(s.name, strings.Join(lines, "\n")+"\n", nil)
		s.runs++
		return err == nil && len(cases) == 1 && RunContext(s.ctx, s.d, cases[0], s.p, "").Status == Pass
	}
	return true
}

// ddmin removes chunks of removable lines while the text still fails.
func (s *shrinker) ddmin(lines []string) []string {
	for n := 2; ; {
		var idx []int
		for i, l := range lines {
			if s.removable(l) {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			return lines
		}
		n = min(n, len(idx))
		reduced := false
		for c := 0; c < n; c++ {
			lo, hi := c*len(idx)/n, (c+1)*len(idx)/n
			drop := map[int]bool{}
			for _, i := range idx[lo:hi] {
				drop[i] = true
			}
			var cand []string
			for i, l := range lines {
				if !drop[i] {
					cand = append(cand, l)
				}
			}
			if s.fails(cand) {
				lines, reduced = cand, true
				n = max(n-1, 2)
				break
			}
		}
		if !reduced {
			if n >= len(idx) {
				return lines
			}
			n = min(2*n, len(idx))
		}
	}
}

// words removes words, one or two at a time, from the lines left: a
// keyword and its value ("mips 2", "flags DISCARD", "rt R0@1"), never a
// bare number or name, which would shift a command's arguments.
func (s *shrinker) words(lines []string) []string {
	for i := 0; i < len(lines); i++ {
		for span := 2; span >= 1; span-- {
			for j := 1; ; j++ {
				f := strings.Fields(lines[i])
				if j+span > len(f) {
					break
				}
				indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " "))]
				// A list keeps its flags: they decide what its copies
				// need.
				if !s.removable(lines[i]) || f[0] == "list" {
					break
				}
				if c := f[j][0]; c < 'a' || c > 'z' {
					continue
				}
				cand := slices.Clone(lines)
				cand[i] = indent + strings.Join(slices.Delete(f, j, j+span), " ")
				if s.fails(cand) {
					lines = cand
					j--
				}
			}
		}
	}
	return lines
}

// resources removes a resource (or heap) with everything that names it,
// which removing lines one at a time cannot when the resource is bound
// beside others in one command: its declaration and every line naming
// it, except that a view bound by a keyword ("srv R2", "rt R0@1") leaves
// the command and only the view goes (the keyword too, once it binds
// nothing). Resources go last first; a heap goes with what is placed in
// it.
func (s *shrinker) resources(lines []string) []string {
	for i := len(lines) - 1; i >= 0; i-- {
		f := strings.Fields(lines[i])
		if len(f) < 2 || lines[i][0] == ' ' || f[0] != "texture" && f[0] != "buffer" && f[0] != "heap" {
			continue
		}
		if cand, ok := s.withoutResource(lines, i, f[1]); ok && s.fails(cand) {
			lines = cand
			i = min(i, len(lines))
		}
	}
	return lines
}

// withoutResource is lines without the resource declared at line decl
// and what names it; false if a line that must stay names it.
func (s *shrinker) withoutResource(lines []string, decl int, name string) ([]string, bool) {
	view := regexp.MustCompile(`^` + regexp.QuoteMeta(name) + `(@\d+|\[[^\]]*\])?$`)
	names := func(f []string) bool { return slices.ContainsFunc(f, view.MatchString) }
	var out []string
	for j, l := range lines {
		f := strings.Fields(l)
		if j == decl {
			continue
		}
		if !names(f) {
			out = append(out, l)
			continue
		}
		if !s.removable(l) {
			return nil, false
		}
		bound := l[0] == ' ' && !isBarrierLine(f[0])
		if !bound && !(f[0] == "expect" && len(f) > 1 && f[1] == "reference") {
			continue // a declaration placed in it, a write, a barrier, an expectation of its bytes
		}
		// Drop the views; a keyword that binds nothing after that goes too.
		var kept []string
		for k := 0; k < len(f); k++ {
			if view.MatchString(f[k]) {
				continue
			}
			kept = append(kept, f[k])
		}
		for k := len(kept) - 1; k >= 1; k-- {
			if isKeyword(kept[k]) && (k+1 == len(kept) || isKeyword(kept[k+1])) {
				kept = slices.Delete(kept, k, k+1)
			}
		}
		if bound && len(kept) == len(f) {
			continue
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
		out = append(out, indent+strings.Join(kept, " "))
	}
	return out, true
}

// isKeyword reports whether a word of a command is a keyword (lower case),
// not a view, number or value.
func isKeyword(w string) bool { return w != "" && w[0] >= 'a' && w[0] <= 'z' }

// blocks removes whole `list`/`reset`/`call`/`resource-barriers` ... `end`
// blocks, last first, which line-by-line removal cannot (half a block does
// not parse).
func (s *shrinker) blocks(lines []string) []string {
	for i := len(lines) - 1; i >= 0; i-- {
		w, _, _ := strings.Cut(strings.TrimSpace(lines[i]), " ")
		if w != "list" && w != "reset" && w != "call" && w != "call-0088" && w != "resource-barriers" {
			continue
		}
		end := i + 1
		for depth := 1; end < len(lines); end++ {
			switch w, _, _ := strings.Cut(strings.TrimSpace(lines[end]), " "); w {
			case "call", "call-0088", "resource-barriers":
				depth++
			case "end":
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if end >= len(lines) || slices.ContainsFunc(lines[i:end+1], func(l string) bool { return !s.removable(l) }) {
			continue
		}
		cand := slices.Delete(slices.Clone(lines), i, end+1)
		// A list goes with its name in the executes.
		if w == "list" {
			name := strings.Fields(lines[i])[1]
			for j, l := range cand {
				if f := strings.Fields(l); len(f) > 0 && f[0] == "execute" {
					f = slices.DeleteFunc(f, func(x string) bool { return x == name })
					cand[j] = strings.Join(f, " ")
				}
			}
			cand = slices.DeleteFunc(cand, func(l string) bool { return len(strings.Fields(l)) == 2 && strings.HasPrefix(l, "execute ") })
		}
		if s.fails(cand) {
			lines = cand
			i = min(i, len(lines))
		}
	}
	return lines
}

// ShrinkCase reduces a failing case of a run (a case of a file that holds
// only it, as the random programs do) on its profile, with the run's
// driver and fault.
func ShrinkCase(ctx context.Context, c Config, cr CaseResult) (string, error) {
	for _, s := range c.Suites {
		if s.Name != cr.Suite {
			continue
		}
		for _, sc := range s.Cases {
			if sc.Name() != cr.Case {
				continue
			}
			text, ok := s.Files[sc.File]
			if !ok {
				return "", fmt.Errorf("hlk: shrink %s: no source for %s", cr.Path(), sc.File)
			}
			if n := countCases(s, sc.File); n != 1 {
				return "", fmt.Errorf("hlk: shrink %s: %s holds %d cases; only a file of one case shrinks", cr.Path(), sc.File, n)
			}
			p, err := hwmodel.LookupProfile(cr.Profile)
			if err != nil {
				return "", err
			}
			return Shrink(ctx, c.Driver, sc.File, text, p, c.Inject)
		}
	}
	return "", fmt.Errorf("hlk: shrink %s: no such case", cr.Path())
}

func countCases(s Suite, file string) int {
	n := 0
	for _, sc := range s.Cases {
		if sc.File == file {
			n++
		}
	}
	return n
}
