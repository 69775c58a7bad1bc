package ddi

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// RulesDocument is the rule tables in the shape `ebref rules --json` prints:
// names are enum names without their D3D12DDI_BARRIER_<KIND>_ prefix, every
// list holds all DDI names of its values sorted by value and then name (so
// aliases such as EXECUTE_INDIRECT and PREDICATION appear together), and maps
// marshal with sorted keys.
type RulesDocument struct {
	UmbrellaSyncs  map[string][]string            `json:"umbrella_syncs"`
	Queues         map[string]QueueDocument       `json:"queues"`
	LayoutAccesses map[string][]string            `json:"layout_accesses"`
	AccessSyncs    map[string][]string            `json:"access_syncs"`
	LegacyStates   map[string]LegacyStateDocument `json:"legacy_states"`
}

// QueueDocument is one queue type's row of RulesDocument.
type QueueDocument struct {
	Layouts  []string `json:"layouts"`
	Accesses []string `json:"accesses"`
	Syncs    []string `json:"syncs"`
}

// LegacyStateDocument is one legacy state's row of RulesDocument. Layout is
// nil where the spec says N/A.
type LegacyStateDocument struct {
	Layout   *string  `json:"layout"`
	Accesses []string `json:"accesses"`
	Syncs    []string `json:"syncs"`
}

// LayoutNames lists every DDI name of the given layouts (COMMON and PRESENT
// for 0), sorted by value then name.
func LayoutNames(ls []BarrierLayout) []string {
	vals := make([]uint32, len(ls))
	for i, l := range ls {
		vals[i] = uint32(l)
	}
	return layoutNames.namesOf(vals...)
}

// anySyncNames is how a row that accepts "any valid sync bits" lists them.
func anySyncNames() []string { return DefinedSyncBits.Names() }

// Rules builds the RulesDocument from the tables.
func Rules() RulesDocument {
	d := RulesDocument{
		UmbrellaSyncs:  map[string][]string{},
		Queues:         map[string]QueueDocument{},
		LayoutAccesses: map[string][]string{},
		AccessSyncs:    map[string][]string{},
		LegacyStates:   map[string]LegacyStateDocument{},
	}
	for _, r := range UmbrellaSyncs {
		d.UmbrellaSyncs[r.Umbrella.String()] = r.Covers.Names()
	}
	for _, q := range Queues {
		d.Queues[q.Type.String()] = QueueDocument{
			Layouts:  LayoutNames(q.Layouts),
			Accesses: q.Accesses.Names(),
			Syncs:    q.Syncs.Names(),
		}
	}
	for _, r := range LayoutAccesses {
		for _, n := range LayoutNames([]BarrierLayout{r.Layout}) {
			d.LayoutAccesses[n] = r.Accesses.Names()
		}
	}
	for _, r := range AccessSyncs {
		syncs := r.Syncs.Names()
		if r.Any {
			syncs = anySyncNames()
		}
		for _, n := range r.Access.Names() {
			d.AccessSyncs[n] = syncs
		}
	}
	for _, r := range LegacyStates {
		var l *string
		if r.HasLayout {
			s := r.Layout.String()
			l = &s
		}
		d.LegacyStates[r.Name] = LegacyStateDocument{Layout: l, Accesses: r.Access.Names(), Syncs: r.Sync.Names()}
	}
	// Combinations: the syncs and accesses of every bit (a texture gets
	// those its layout allows), and the layout a texture gets.
	for _, c := range LegacyCombinations {
		name := c.String()
		switch c {
		case StateGenericRead:
			name = "GENERIC_READ"
		case StateAllShaderResource:
			name = "ALL_SHADER_RESOURCE"
		}
		b, _ := LegacyEquivalent(c, false)
		t, _ := LegacyEquivalent(c, true)
		l := t.Layout.String()
		d.LegacyStates[name] = LegacyStateDocument{Layout: &l, Accesses: b.Access.Names(), Syncs: b.Sync.Names()}
	}
	return d
}

// WriteText prints the rule tables for people: one section per table, one
// line per row, with the spec citation of each table.
func (d RulesDocument) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	section := func(title, cite string) {
		fmt.Fprintf(tw, "\n%s\t(%s)\n", title, cite)
	}
	row := func(key string, vals []string) {
		fmt.Fprintf(tw, "  %s\t%s\n", key, strings.Join(vals, " "))
	}
	keys := func(m map[string][]string) []string {
		ks := make([]string, 0, len(m))
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return ks
	}

	fmt.Fprintln(tw, "ebref rule tables. Where they differ from the spec's literal tables, docs/errata.md says why.")
	section("Umbrella sync scopes", citeUmbrella)
	for _, k := range keys(d.UmbrellaSyncs) {
		row(k, d.UmbrellaSyncs[k])
	}
	section("Queue compatibility", "000/002 \"Command Queue {Layout,Access,Sync} Compatibility\"")
	for _, q := range Queues {
		name := q.Type.String()
		qd := d.Queues[name]
		row(name+" layouts", qd.Layouts)
		row(name+" accesses", qd.Accesses)
		row(name+" syncs", qd.Syncs)
	}
	section("Layout -> compatible accesses", citeLayoutAccess)
	for _, k := range keys(d.LayoutAccesses) {
		row(k, d.LayoutAccesses[k])
	}
	section("Access -> required syncs (at least one)", citeAccessSync)
	for _, k := range keys(d.AccessSyncs) {
		row(k, d.AccessSyncs[k])
	}
	section("Legacy state -> layout | accesses | syncs", citeLegacy)
	lk := make([]string, 0, len(d.LegacyStates))
	for k := range d.LegacyStates {
		lk = append(lk, k)
	}
	sort.Strings(lk)
	for _, k := range lk {
		s := d.LegacyStates[k]
		layout := "N/A"
		if s.Layout != nil {
			layout = *s.Layout
		}
		fmt.Fprintf(tw, "  %s\t%s | %s | %s\n", k, layout, strings.Join(s.Accesses, " "), strings.Join(s.Syncs, " "))
	}
	return tw.Flush()
}
