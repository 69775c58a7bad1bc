package ddi

import (
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"
)

// name is one spelling of a value. A value may have several spellings (the
// spec aliases PRESENT to COMMON, PREDICATION to EXECUTE_INDIRECT); the first
// one listed for a value is the one String prints. api marks spellings that
// exist only in the public API headers and not in the DDI (INDEX_INPUT): Parse
// accepts them, listings of DDI names leave them out.
type name struct {
	value uint32
	text  string
	api   bool
}

// nameTable knows every spelling of one enum or flag set and the prefixes a
// spelling may carry (D3D12DDI_BARRIER_SYNC_, D3D12_BARRIER_SYNC_, ...).
type nameTable struct {
	kind     string // what the values are, for error messages ("barrier sync")
	prefixes []string
	suffix   string // a version suffix a prefixed spelling may end in ("_0094")
	names    []name
	zero     string // how a flag set prints 0 ("NONE", "COMMON"); "" for enums
	byText   map[string]uint32
	primary  map[uint32]string
}

func newNameTable(kind string, prefixes []string, zero string, names []name) *nameTable {
	t := &nameTable{
		kind:     kind,
		prefixes: prefixes,
		names:    names,
		zero:     zero,
		byText:   make(map[string]uint32, len(names)),
		primary:  make(map[uint32]string, len(names)),
	}
	for _, n := range names {
		if _, dup := t.byText[n.text]; dup {
			panic("ddi: duplicate " + kind + " name " + n.text)
		}
		t.byText[n.text] = n.value
		if _, ok := t.primary[n.value]; !ok && !n.api {
			t.primary[n.value] = n.text
		}
	}
	return t
}

// enumString prints an enum value by its primary name, or as hex when the
// value has no name.
func (t *nameTable) enumString(v uint32) string {
	if s, ok := t.primary[v]; ok {
		return s
	}
	return fmt.Sprintf("0x%x", v)
}

// flagsString prints a flag set as NAME|NAME in ascending bit order, bits
// without a name as one trailing hex number, and 0 as the table's zero name.
func (t *nameTable) flagsString(v uint32) string {
	if v == 0 {
		return t.zero
	}
	var b strings.Builder
	var unknown uint32
	for rest := v; rest != 0; rest &= rest - 1 {
		bit := uint32(1) << bits.TrailingZeros32(rest)
		s, ok := t.primary[bit]
		if !ok {
			unknown |= bit
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('|')
		}
		b.WriteString(s)
	}
	if unknown != 0 {
		if b.Len() > 0 {
			b.WriteByte('|')
		}
		fmt.Fprintf(&b, "0x%x", unknown)
	}
	return b.String()
}

// withSuffix lets prefixed spellings end in a version suffix, as the
// header's D3D12DDI_RANGED_BARRIER_FLAG_ACQUIRE_0094 does.
func (t *nameTable) withSuffix(s string) *nameTable {
	t.suffix = s
	return t
}

// lookup resolves one spelling, with or without one of the table's prefixes
// (and, with a prefix, its version suffix).
func (t *nameTable) lookup(s string) (uint32, bool) {
	if v, ok := t.byText[s]; ok {
		return v, true
	}
	for _, p := range t.prefixes {
		rest, ok := strings.CutPrefix(s, p)
		if !ok {
			continue
		}
		if v, ok := t.byText[rest]; ok {
			return v, true
		}
		if rest == t.zero && rest != "" {
			return 0, true // a flag set's zero with its prefix: D3D12DDI_TEXTURE_BARRIER_FLAG_NONE
		}
		if t.suffix == "" {
			continue
		}
		if rest, ok := strings.CutSuffix(rest, t.suffix); ok {
			if rest == t.zero {
				return 0, true
			}
			if v, ok := t.byText[rest]; ok {
				return v, true
			}
		}
	}
	return 0, false
}

// parseEnum is the inverse of enumString: a name (any alias, any prefix) or a
// hex or decimal number.
func (t *nameTable) parseEnum(s string) (uint32, error) {
	if v, ok := t.lookup(s); ok {
		return v, nil
	}
	if v, err := strconv.ParseUint(s, 0, 32); err == nil {
		return uint32(v), nil
	}
	return 0, fmt.Errorf("%w: %q is not a %s", ErrUnknownName, s, t.kind)
}

// parseFlags is the inverse of flagsString: names or numbers joined by '|'.
func (t *nameTable) parseFlags(s string) (uint32, error) {
	if s == "" {
		return 0, fmt.Errorf("%w: empty %s", ErrUnknownName, t.kind)
	}
	var v uint32
	for part := range strings.SplitSeq(s, "|") {
		part = strings.TrimSpace(part)
		if part == t.zero {
			continue
		}
		x, err := t.parseEnum(part)
		if err != nil {
			return 0, err
		}
		v |= x
	}
	return v, nil
}

// namesOf lists every DDI spelling of every value in vals, sorted by value and
// then by name, so aliases appear side by side. API-only spellings are left
// out.
func (t *nameTable) namesOf(vals ...uint32) []string {
	want := make(map[uint32]bool, len(vals))
	for _, v := range vals {
		want[v] = true
	}
	var out []name
	for _, n := range t.names {
		if want[n.value] && !n.api {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].value != out[j].value {
			return out[i].value < out[j].value
		}
		return out[i].text < out[j].text
	})
	s := make([]string, len(out))
	for i, n := range out {
		s[i] = n.text
	}
	return s
}

// maskNames lists the DDI names of every bit of a flag set (namesOf over its
// bits), or the zero name alone for 0.
func (t *nameTable) maskNames(v uint32) []string {
	if v == 0 {
		return []string{t.zero}
	}
	var vals []uint32
	for rest := v; rest != 0; rest &= rest - 1 {
		vals = append(vals, uint32(1)<<bits.TrailingZeros32(rest))
	}
	return t.namesOf(vals...)
}

// values lists the distinct named values in ascending order.
func (t *nameTable) values() []uint32 {
	var out []uint32
	for v := range t.primary {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
