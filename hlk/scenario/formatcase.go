package scenario

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/ddi/legacy"
	"github.com/ebref/ebref/hlk/driver"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
)

// Format writes one case as scenario text (docs/scenarios.md, "Printing
// a case"): its header (title, profiles, features, debug), its statements
// in order, a list's commands between `list` and `end`, then its
// expectations. Parsing the text gives the case back, equal as Diff says
// (positions, File and Params aside: the text is the case with its
// parameters' values in place, and names them in a comment).
//
// Where the case holds something the language cannot write — a member of
// a resource description or of a barrier no statement sets, a name that is
// not a word, a string with a newline, a view both a range and a
// subresource, a recording name the resets do not give — Format returns
// an error naming the statement and the member, never a text that parses
// to another case. A case the parser would refuse for what it means
// (a name used before it is declared, a profile that does not exist) is
// written as it is and refused when parsed.
func Format(sc *Scenario) (string, error) {
	f := &formatter{kinds: map[string]string{}, resets: map[string]int{}, words: map[string]bool{}}
	if err := f.scenario(sc); err != nil {
		return "", err
	}
	return f.b.String(), nil
}

// formatter writes a case; kinds and resets follow the names declared and
// the lists reset so far, as the parser does, to check what a statement
// holds that the parser derives (a destroy's kind, a recording's name).
type formatter struct {
	b      strings.Builder
	kinds  map[string]string
	resets map[string]int
	words  map[string]bool // names already checked
}

// formatError is a case Format cannot write: where, and what.
func formatError(where, format string, args ...any) error {
	return fmt.Errorf("scenario: cannot write %s: %s", where, fmt.Sprintf(format, args...))
}

func (f *formatter) line(indent int, words ...string) {
	for range indent {
		f.b.WriteString("  ")
	}
	for i, w := range words {
		if i > 0 {
			f.b.WriteByte(' ')
		}
		f.b.WriteString(w)
	}
	f.b.WriteByte('\n')
}

func (f *formatter) scenario(sc *Scenario) error {
	if sc.Title != "" {
		s, err := quote(sc.Title)
		if err != nil {
			return formatError("the title", "%v", err)
		}
		f.line(0, "scenario", s)
	}
	if len(sc.Params) > 0 {
		var ps []string
		for _, p := range sc.Params {
			ps = append(ps, p.Name+"="+p.Value)
		}
		// A comment: the values are in place, and a param line would
		// make the text a case per value again.
		f.line(0, "# parameters:", strings.Join(ps, " "))
	}
	for _, list := range []struct {
		kw    string
		words []string
	}{{"profiles", sc.Profiles}, {"require", sc.Requires}} {
		if len(list.words) == 0 {
			continue
		}
		for _, w := range list.words {
			if !isName(w) {
				return formatError(list.kw, "%q is not a word", w)
			}
		}
		f.line(0, append([]string{list.kw}, list.words...)...)
	}
	if sc.Debug {
		f.line(0, "debug")
	}
	for i, st := range sc.Steps {
		if err := f.step(st); err != nil {
			return fmt.Errorf("step %d: %w", i+1, err)
		}
	}
	for i, e := range sc.Expects {
		if err := f.expect(e); err != nil {
			return fmt.Errorf("expectation %d: %w", i+1, err)
		}
	}
	return nil
}

// name checks a declared or referenced name: one word of the language,
// no keyword, no parameter reference.
func (f *formatter) name(what, n string) (string, error) {
	if f.words[n] {
		return n, nil
	}
	if !isName(n) || reserved[n] {
		return "", formatError(what, "%q is not a name the language reads (a word, not a keyword)", n)
	}
	f.words[n] = true
	return n, nil
}

// isName reports whether s lexes as one word token that substitution
// leaves alone.
func isName(s string) bool {
	if s == "" || !(isLetter(s[0]) || s[0] == '_' || s[0] == '$') || strings.Contains(s, "${") {
		return false
	}
	for j := 1; j < len(s); j++ {
		if !isWordByte(s, j) {
			return false
		}
	}
	return true
}

// quote writes a string token: the lexer reads \x as x.
func quote(s string) (string, error) {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20 && c != '\t' || c == 0x7f:
			return "", fmt.Errorf("%q holds control character %U, which a string cannot", s, rune(c))
		case c == '"' || c == '\\':
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return b.String(), nil
}

// enum writes an enum or flag set by its String when that parses back to
// the value, as a number otherwise.
func enum[T ~uint32](v T, str string, parse func(string) (T, error)) string {
	if p, err := parse(str); err == nil && p == v && str != "" {
		return str
	}
	return strconv.FormatUint(uint64(v), 10)
}

func syncWord(v ddi.BarrierSync) string { return enum(v, v.String(), ddi.ParseBarrierSync) }
func accessWord(v ddi.BarrierAccess) string {
	return enum(v, v.String(), ddi.ParseBarrierAccess)
}
func layoutWord(v ddi.BarrierLayout) string { return enum(v, v.String(), ddi.ParseBarrierLayout) }
func statesWord(v ddi.ResourceStates) string {
	return enum(v, v.String(), ddi.ParseResourceStates)
}

func num(v uint64) string { return strconv.FormatUint(v, 10) }

func (f *formatter) declare(what, n, kind string) (string, error) {
	n, err := f.name(what, n)
	if err == nil {
		f.kinds[n] = kind
	}
	return n, err
}

func (f *formatter) step(st Step) error {
	switch s := st.(type) {
	case *HeapStep:
		n, err := f.declare("heap", s.Name, "heap")
		if err != nil {
			return err
		}
		kind, err := heapKindWord(s.Kind)
		if err != nil {
			return formatError("heap "+n, "%v", err)
		}
		f.line(0, "heap", n, kind, num(s.Size))
	case *ResourceStep:
		return f.resource(s)
	case *QueryHeapStep:
		n, err := f.declare("query-heap", s.Name, "query heap")
		if err != nil {
			return err
		}
		typ := s.Type.String()
		if p, err := ddi.ParseQueryHeapType(typ); err != nil || p != s.Type {
			typ = num(uint64(s.Type))
		}
		f.line(0, "query-heap", n, typ, num(uint64(s.Count)))
	case *QueueStep:
		n, err := f.declare("queue", s.Name, "queue")
		if err != nil {
			return err
		}
		typ, err := listTypeWord(s.Type)
		if err != nil {
			return formatError("queue "+n, "%v", err)
		}
		f.line(0, "queue", n, typ)
	case *FenceStep:
		n, err := f.declare("fence", s.Name, "fence")
		if err != nil {
			return err
		}
		f.line(0, "fence", n)
	case *ListStep:
		return f.list(s)
	case *ExecuteStep:
		words := []string{"execute", s.Queue}
		if len(s.Lists) == 0 {
			return formatError("execute on "+s.Queue, "it submits no list")
		}
		for _, l := range append([]string{s.Queue}, s.Lists...) {
			if _, err := f.name("execute", l); err != nil {
				return err
			}
		}
		f.line(0, append(words, s.Lists...)...)
	case *FenceOpStep:
		kw := "signal"
		if s.Wait {
			kw = "wait"
		}
		for _, n := range []string{s.Queue, s.Fence} {
			if _, err := f.name(kw, n); err != nil {
				return err
			}
		}
		f.line(0, kw, s.Queue, s.Fence, num(s.Value))
	case *WaitIdleStep:
		f.line(0, "wait-idle")
	case *DestroyStep:
		n, err := f.name("destroy", s.Name)
		if err != nil {
			return err
		}
		if k, ok := f.kinds[n]; ok && k != s.Kind {
			return formatError("destroy "+n, "its kind is %q, but %s is declared a %s", s.Kind, n, k)
		}
		f.line(0, "destroy", n)
	case *WriteStep:
		n, err := f.name("write", s.Resource)
		if err != nil {
			return err
		}
		data, err := bytesWords(s.Data, s.Fill, false)
		if err != nil {
			return formatError("write "+n, "%v", err)
		}
		f.line(0, append([]string{"write", n, num(s.Offset)}, data...)...)
	default:
		return formatError(fmt.Sprintf("a %T", st), "the language has no such statement")
	}
	return nil
}

func heapKindWord(k resource.HeapKind) (string, error) {
	w := strings.ToLower(k.String())
	if p, err := resource.ParseHeapKind(strings.ToUpper(w)); err != nil || p != k {
		return "", fmt.Errorf("heap kind %d has no name", k)
	}
	return w, nil
}

func listTypeWord(t ddi.CommandListType) (string, error) {
	w := t.String()
	if p, err := ddi.ParseCommandListType(w); err != nil || p != t {
		return "", fmt.Errorf("command list type %d has no name", uint32(t))
	}
	return w, nil
}

// bytesWords writes bytes as hex words, 16 bytes a word, or fill when
// fill is set (data its one byte) or, with shorten, when the bytes are
// many of one: an expectation's bytes read the same either way, while a
// write keeps the form it was given (WriteStep.Fill).
func bytesWords(data []byte, fill uint64, shorten bool) ([]string, error) {
	switch {
	case fill > 0 && len(data) != 1:
		return nil, fmt.Errorf("a fill of %d bytes repeats one byte, not %d", fill, len(data))
	case fill > 1<<24:
		return nil, fmt.Errorf("a fill of %d bytes: fill writes at most 16 MiB", fill)
	case fill > 0:
		return []string{"fill", fmt.Sprintf("0x%02x", data[0]), num(fill)}, nil
	case len(data) == 0:
		return nil, fmt.Errorf("no bytes")
	case shorten && len(data) >= 16 && len(data) <= 1<<24 && bytes.Count(data, data[:1]) == len(data):
		return []string{"fill", fmt.Sprintf("0x%02x", data[0]), num(uint64(len(data)))}, nil
	}
	var out []string
	for len(data) > 0 {
		n := min(16, len(data))
		out = append(out, hex.EncodeToString(data[:n]))
		data = data[n:]
	}
	return out, nil
}

// resource writes `buffer` or `texture`; the description must be the one
// its words give.
func (f *formatter) resource(s *ResourceStep) error {
	n, err := f.declare("a resource", s.Name, "resource")
	if err != nil {
		return err
	}
	d := &s.Desc
	var words []string
	var want ddi.CreateResource0088
	where := "resource " + n
	switch d.ResourceType {
	case ddi.ResourceTypeBuffer:
		words = []string{"buffer", n, num(d.Width)}
		want = driver.BufferDesc(d.Width, 0)
	case ddi.ResourceTypeTexture1D, ddi.ResourceTypeTexture2D, ddi.ResourceTypeTexture3D:
		if d.Width > 0xffffffff {
			return formatError(where, "width %d does not fit 32 bits", d.Width)
		}
		want = driver.Texture2DDesc(ddi.FormatR8G8B8A8Unorm, uint32(d.Width), d.Height, 1, 1, 0, ddi.LayoutCommon)
		dims := fmt.Sprintf("%dx%d", d.Width, d.Height)
		switch d.ResourceType {
		case ddi.ResourceTypeTexture1D:
			// The parser reads W as W x 1, a 2D texture.
			return formatError(where, "a 1D texture has no size the language writes (W is a 2D texture of height 1)")
		case ddi.ResourceTypeTexture3D:
			dims += fmt.Sprintf("x%d", d.DepthOrArraySize)
			want.ResourceType, want.DepthOrArraySize = ddi.ResourceTypeTexture3D, d.DepthOrArraySize
		}
		if d.Width == 0 {
			// 0xH would read as a hex number.
			if d.ResourceType != ddi.ResourceTypeTexture2D || d.Height != 1 {
				return formatError(where, "a texture of width 0 is written W alone, which is 2D of height 1")
			}
			dims = "0"
		}
		words = []string{"texture", n, dims}
		if d.Format != want.Format {
			words = append(words, "format", enum(d.Format, d.Format.String(), ddi.ParseFormat))
			want.Format = d.Format
		}
		if d.MipLevels != want.MipLevels {
			words = append(words, "mips", num(uint64(d.MipLevels)))
			want.MipLevels = d.MipLevels
		}
		if d.DepthOrArraySize != want.DepthOrArraySize {
			words = append(words, "array", num(uint64(d.DepthOrArraySize)))
			want.DepthOrArraySize = d.DepthOrArraySize
		}
		if d.SampleDesc.Count != want.SampleDesc.Count {
			words = append(words, "samples", num(uint64(d.SampleDesc.Count)))
			want.SampleDesc.Count = d.SampleDesc.Count
		}
	default:
		return formatError(where, "resource type %d is neither a buffer nor a texture", uint32(d.ResourceType))
	}
	if d.Flags != 0 {
		words = append(words, "flags", enum(d.Flags, d.Flags.String(), ddi.ParseResourceFlags))
		want.Flags = d.Flags
	}
	switch {
	case s.HasLayout && s.HasState:
		return formatError(where, "it has a layout and a legacy state; a resource has one")
	case s.HasLayout:
		words = append(words, "layout", layoutWord(d.InitialBarrierLayout))
		want.InitialBarrierLayout = d.InitialBarrierLayout
	case s.HasState:
		words = append(words, "state", statesWord(s.State))
	case s.State != 0:
		return formatError(where, "it holds state %s but is not created in a legacy state (HasState)", s.State)
	}
	if s.Kind != resource.HeapDefault {
		k, err := heapKindWord(s.Kind)
		if err != nil {
			return formatError(where, "%v", err)
		}
		words = append(words, "in", k)
	}
	switch {
	case s.Heap != "":
		h, err := f.name(where, s.Heap)
		if err != nil {
			return err
		}
		words = append(words, "at", h, num(s.Offset))
		if s.Align != 0 {
			words = append(words, "align", num(s.Align))
		}
	case s.Offset != 0 || s.Align != 0:
		return formatError(where, "offset %d and alignment %d without a heap to place it in", s.Offset, s.Align)
	}
	if want != *d {
		return formatError(where, "its description has members no option sets: %+v, where the options give %+v", *d, want)
	}
	f.line(0, words...)
	return nil
}

func (f *formatter) list(s *ListStep) error {
	n, err := f.name("a list", s.Name)
	if err != nil {
		return err
	}
	where := "list " + n
	if s.Reset {
		f.resets[n]++
		if want := fmt.Sprintf("%s#%d", n, f.resets[n]+1); s.Recording != want {
			return formatError(where, "its recording is named %q; the resets so far name it %q", s.Recording, want)
		}
		if s.Type != 0 || s.Flags != 0 {
			return formatError(where, "a reset keeps the list's type and flags, so it has none (type %s, flags %s)", s.Type, s.Flags)
		}
		f.line(0, "reset", n)
	} else {
		if s.Recording != n {
			return formatError(where, "its first recording is named %q, not the list's name", s.Recording)
		}
		typ, err := listTypeWord(s.Type)
		if err != nil {
			return formatError(where, "%v", err)
		}
		words := []string{"list", n, typ}
		if s.Flags != 0 {
			words = append(words, "flags", enum(s.Flags, s.Flags.String(), ddi.ParseCommandListFlags))
		}
		f.kinds[n] = "list"
		f.line(0, words...)
	}
	for i := range s.Cmds {
		if err := f.cmd(&s.Cmds[i]); err != nil {
			return fmt.Errorf("%s, command %d (%s): %w", where, i+1, s.Cmds[i].Op, err)
		}
	}
	f.line(0, "end")
	return nil
}

// rest checks that a command holds nothing its kind does not write: each
// kind passes the members it writes.
func rest(c *Cmd, views, args, flag, op2, query, box, barriers, legacy bool) error {
	var extra []string
	if !views && len(c.Views) > 0 {
		extra = append(extra, "views")
	}
	if !args && len(c.Args) > 0 {
		extra = append(extra, "numbers")
	}
	if !flag && c.Flag {
		extra = append(extra, "Flag")
	}
	if !op2 && c.Op2 != 0 {
		extra = append(extra, "Op2")
	}
	if !query && c.Query != "" {
		extra = append(extra, "a query heap")
	}
	if !box && c.Box != nil {
		extra = append(extra, "a box")
	}
	if !barriers && (len(c.Barriers) > 0 || c.DDI0088) {
		extra = append(extra, "barriers")
	}
	if !legacy && len(c.Legacy) > 0 {
		extra = append(extra, "legacy barriers")
	}
	if len(extra) > 0 {
		return formatError("the command", "it holds %s, which %s does not write", strings.Join(extra, ", "), c.Op)
	}
	return nil
}

func (f *formatter) cmd(c *Cmd) error {
	switch {
	case c.Op == "barrier":
		return f.barrierCall(c)
	case c.Op == "resource-barrier":
		return f.legacyCall(c)
	case slices.Contains(queryCommands, c.Op):
		return f.queryCmd(c)
	}
	sig, isPos := positional[c.Op]
	roles, hasRoles := commandRoles[c.Op]
	if !isPos && !hasRoles {
		return formatError("the command", "the language has no command %q", c.Op)
	}
	words := []string{c.Op}
	nargs, nviews := 0, 0
	for i, k := range sig {
		switch k {
		case 'v':
			vs, ok := c.Views[strconv.Itoa(i)]
			if !ok || len(vs) != 1 {
				return formatError("the command", "its operand %d is one view, not %d", i, len(vs))
			}
			v, err := f.view(vs[0])
			if err != nil {
				return err
			}
			words = append(words, v)
			nviews++
		case 'n', 'w':
			if nargs >= len(c.Args) {
				return formatError("the command", "it has %d numbers; it needs more", len(c.Args))
			}
			words = append(words, num(c.Args[nargs]))
			nargs++
		}
	}
	flag, op2, box := false, false, false
	switch c.Op {
	case "copy-texture":
		if b := c.Box; b != nil {
			box = true
			words = append(words, "box", num(uint64(b.Left)), num(uint64(b.Top)), num(uint64(b.Front)), num(uint64(b.Right)),
				num(uint64(b.Bottom)), num(uint64(b.Back)))
		}
	case "atomic-copy":
		if flag = c.Flag; flag {
			words = append(words, "64")
		}
	case "predication":
		if len(c.Args) != 1 {
			return formatError("the command", "predication has one number, its offset, not %d", len(c.Args))
		}
		words = append(words, num(c.Args[0]))
		nargs++
		flag, op2 = c.Flag, c.Flag
		if c.Flag {
			op := ddi.PredicationOp(c.Op2)
			w := op.String()
			if p, err := ddi.ParsePredicationOp(w); err != nil || p != op || c.Op2 > 0xffffffff || isDigit(w[0]) {
				return formatError("the command", "predication operation %d has no name", c.Op2)
			}
			words = append(words, w)
		}
	case "draw":
		flag = c.Flag
		if _, ok := c.Views["ds-write"]; ok != c.Flag {
			return formatError("the command", "its Flag (%v) says ds-write, which its views do not (or the other way round)", c.Flag)
		}
	}
	if nargs != len(c.Args) {
		return formatError("the command", "it has %d numbers; %s writes %d", len(c.Args), c.Op, nargs)
	}
	for _, role := range roles {
		vs, ok := c.Views[role]
		if !ok {
			continue
		}
		if len(vs) == 0 {
			return formatError("the command", "role %s has no view", role)
		}
		words = append(words, role)
		for _, v := range vs {
			w, err := f.view(v)
			if err != nil {
				return err
			}
			words = append(words, w)
		}
		nviews++
	}
	if nviews != len(c.Views) {
		var keys []string
		for k := range c.Views {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return formatError("the command", "its views are by %s; %s has operands %q and roles %s", strings.Join(keys, ", "), c.Op, sig, strings.Join(roles, ", "))
	}
	if err := rest(c, true, true, flag, op2, false, box, false, false); err != nil {
		return err
	}
	f.line(1, words...)
	return nil
}

func (f *formatter) queryCmd(c *Cmd) error {
	h, err := f.name("a query command", c.Query)
	if err != nil {
		return err
	}
	qt := ddi.QueryType(c.Op2)
	typ := qt.String()
	if p, err := ddi.ParseQueryType(typ); err != nil || p != qt || c.Op2 > 0xffffffff {
		typ = num(c.Op2)
	}
	words := []string{c.Op, h, typ}
	want := 1
	if c.Op == "resolve-query" {
		want = 3
	}
	if len(c.Args) != want {
		return formatError("the command", "%s has %d numbers, not %d", c.Op, want, len(c.Args))
	}
	words = append(words, num(c.Args[0]))
	if c.Op == "resolve-query" {
		vs := c.Views["0"]
		if len(c.Views) != 1 || len(vs) != 1 {
			return formatError("the command", "resolve-query has one view, its destination")
		}
		v, err := f.view(vs[0])
		if err != nil {
			return err
		}
		words = append(words, num(c.Args[1]), v, num(c.Args[2]))
	} else if len(c.Views) > 0 {
		return formatError("the command", "%s has no view", c.Op)
	}
	if err := rest(c, true, true, false, true, true, false, false, false); err != nil {
		return err
	}
	f.line(1, words...)
	return nil
}

// view writes a view: NAME, NAME[OFF+SIZE], NAME@SUB, NULL or a number.
func (f *formatter) view(v ViewRef) (string, error) {
	var s string
	switch {
	case v.IsRaw && v.Res != "":
		return "", formatError("view "+v.Res, "it is a name and a raw handle at once")
	case v.IsRaw && v.Raw == 0:
		if v.HasRange || v.HasSub || v.Offset|v.Size|uint64(v.Sub) != 0 {
			return "", formatError("view NULL", "NULL takes no range or subresource")
		}
		return "NULL", nil
	case v.IsRaw:
		s = fmt.Sprintf("0x%x", v.Raw)
	case v.Raw != 0:
		return "", formatError("view "+v.Res, "it holds raw handle %#x but is not raw (IsRaw)", v.Raw)
	default:
		var err error
		if s, err = f.name("a view", v.Res); err != nil {
			return "", err
		}
	}
	switch {
	case v.HasRange && v.HasSub:
		return "", formatError("view "+s, "it is a byte range and a subresource at once")
	case v.HasRange:
		if v.Sub != 0 {
			return "", formatError("view "+s, "it holds subresource %d beside its range", v.Sub)
		}
		return fmt.Sprintf("%s[%d+%d]", s, v.Offset, v.Size), nil
	case v.HasSub:
		if v.Offset|v.Size != 0 {
			return "", formatError("view "+s, "it holds a range %d+%d beside its subresource", v.Offset, v.Size)
		}
		return fmt.Sprintf("%s@%d", s, v.Sub), nil
	case v.Offset|v.Size|uint64(v.Sub) != 0:
		return "", formatError("view "+s, "it holds a range or subresource but says it has none (HasRange, HasSub)")
	}
	return s, nil
}

// barrierCall writes a Barrier call: `barriers` (none), `barrier X` (one),
// a `call` block (several); the 0088 forms likewise.
func (f *formatter) barrierCall(c *Cmd) error {
	if err := rest(c, false, false, false, false, false, false, true, false); err != nil {
		return err
	}
	suffix := ""
	if c.DDI0088 {
		suffix = "-0088"
	}
	lines := make([]string, len(c.Barriers))
	for i := range c.Barriers {
		var err error
		if lines[i], err = f.barrierText(&c.Barriers[i], c.DDI0088); err != nil {
			return fmt.Errorf("barrier %d: %w", i+1, err)
		}
	}
	switch {
	case len(lines) == 0 && !c.DDI0088:
		f.line(1, "barriers")
	case len(lines) == 1:
		f.line(1, "barrier"+suffix, lines[0])
	default:
		f.line(1, "call"+suffix)
		for _, l := range lines {
			f.line(2, l)
		}
		f.line(1, "end")
	}
	return nil
}

// barrierText writes a barrier as the members of a `barrier` line
// (after the word barrier), or says which member the language cannot
// write.
func (f *formatter) barrierText(b *BarrierSpec, v0088 bool) (string, error) {
	typ := b.Barrier.Type
	ranged88 := v0088 && typ == ddi.BarrierTypeRanged
	var words []string
	var want ddi.Barrier
	var want88 ddi.RangedBarrier0088
	all := ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources}
	syncAccess := func(g ddi.GlobalBarrier) {
		words = append(words, "sync", syncWord(g.SyncBefore), "->", syncWord(g.SyncAfter),
			"access", accessWord(g.AccessBefore), "->", accessWord(g.AccessAfter))
	}
	switch typ {
	case ddi.BarrierTypeGlobal:
		g := *b.Barrier.Global()
		words = append(words, "global")
		syncAccess(g)
		want = ddi.NewGlobalBarrier(g)
	case ddi.BarrierTypeTexture:
		t := b.Barrier.Texture()
		words = append(words, "texture", "")
		syncAccess(ddi.GlobalBarrier{SyncBefore: t.SyncBefore, SyncAfter: t.SyncAfter, AccessBefore: t.AccessBefore, AccessAfter: t.AccessAfter})
		words = append(words, "layout", layoutWord(t.LayoutBefore), "->", layoutWord(t.LayoutAfter))
		w := ddi.TextureBarrier{SyncBefore: t.SyncBefore, SyncAfter: t.SyncAfter, AccessBefore: t.AccessBefore, AccessAfter: t.AccessAfter,
			LayoutBefore: t.LayoutBefore, LayoutAfter: t.LayoutAfter, Subresources: all, Flags: t.Flags}
		if b.Sub != nil {
			sub, err := subWords(b.Sub)
			if err != nil {
				return "", err
			}
			words = append(words, "subresources", sub)
		}
		if t.Flags != 0 {
			words = append(words, "flags", enum(t.Flags, t.Flags.String(), ddi.ParseTextureBarrierFlags))
		}
		want = ddi.NewTextureBarrier(w)
	case ddi.BarrierTypeBuffer:
		x := b.Barrier.Buffer()
		words = append(words, "buffer", "")
		syncAccess(ddi.GlobalBarrier{SyncBefore: x.SyncBefore, SyncAfter: x.SyncAfter, AccessBefore: x.AccessBefore, AccessAfter: x.AccessAfter})
		want = ddi.NewBufferBarrier(ddi.BufferBarrier{SyncBefore: x.SyncBefore, SyncAfter: x.SyncAfter, AccessBefore: x.AccessBefore, AccessAfter: x.AccessAfter})
	case ddi.BarrierTypeRanged:
		words = append(words, "ranged", "")
		if ranged88 {
			r := &b.Ranged0088
			syncAccess(r.GlobalBarrier)
			want88 = ddi.RangedBarrier0088{GlobalBarrier: r.GlobalBarrier, Subresources: all, Flags: r.Flags}
			if b.Sub != nil {
				sub, err := subWords(b.Sub)
				if err != nil {
					return "", err
				}
				words = append(words, "subresources", sub)
			}
			if r.Range != (ddi.Range{}) {
				if r.Range.End < r.Range.Begin {
					return "", formatError("a ranged barrier", "its range ends (%d) before it begins (%d)", r.Range.End, r.Range.Begin)
				}
				words = append(words, "range", fmt.Sprintf("%d+%d", r.Range.Begin, r.Range.End-r.Range.Begin))
				want88.Range = r.Range
			}
			if r.Flags != 0 {
				words = append(words, "flags", enum(r.Flags, r.Flags.String(), ddi.ParseRangedBarrierFlags))
			}
			want = ddi.Barrier{Type: ddi.BarrierTypeRanged}
			break
		}
		r := b.Barrier.Ranged()
		w := ddi.RangedBarrier{Flags: r.Flags, Subresource: r.Subresource, Range: r.Range}
		switch r.Subresource {
		case 0:
		case ddi.AllSubresourcesIndex:
			words = append(words, "subresource", "all")
		default:
			words = append(words, "subresource", num(uint64(r.Subresource)))
		}
		if r.Range != (ddi.Range{}) {
			if r.Range.End < r.Range.Begin {
				return "", formatError("a ranged barrier", "its range ends (%d) before it begins (%d)", r.Range.End, r.Range.Begin)
			}
			words = append(words, "range", fmt.Sprintf("%d+%d", r.Range.Begin, r.Range.End-r.Range.Begin))
		}
		if r.Flags != 0 {
			words = append(words, "flags", enum(r.Flags, r.Flags.String(), ddi.ParseRangedBarrierFlags))
		}
		want = ddi.NewRangedBarrier(w)
	default:
		words = append(words, "type", num(uint64(typ)))
		want = ddi.Barrier{Type: typ}
	}
	hasRes := typ == ddi.BarrierTypeTexture || typ == ddi.BarrierTypeBuffer || typ == ddi.BarrierTypeRanged
	switch {
	case b.HasRes != hasRes:
		return "", formatError("a barrier", "a %s barrier names a resource: %v, but HasRes says %v", typ, hasRes, b.HasRes)
	case hasRes:
		v, err := f.view(b.Res)
		if err != nil {
			return "", err
		}
		words[1] = v
	case b.Res != (ViewRef{Pos: b.Res.Pos}):
		return "", formatError("a barrier", "a %s barrier names no resource, but holds view %+v", typ, b.Res)
	}
	if b.Sub != nil && typ != ddi.BarrierTypeTexture && !ranged88 {
		return "", formatError("a barrier", "a %s barrier has no subresources member", typ)
	}
	if want != b.Barrier {
		return "", formatError("a barrier", "it has members its line cannot write (its resource handle is filled in at run time; "+
			"a texture's Subresources are written as Sub): %+v", b.Barrier)
	}
	if want88 != b.Ranged0088 {
		return "", formatError("a barrier", "its 0088 ranged members (%+v) are a 0088 call's ranged barrier's only", b.Ranged0088)
	}
	return strings.Join(words, " "), nil
}

// subWords writes a barrier's subresources.
func subWords(s *SubSpec) (string, error) {
	switch {
	case s.All && (s.IsIndex || s.HasMips || s.HasSlices || s.HasPlanes):
		return "", formatError("subresources", "all, and an index or ranges as well")
	case s.All:
		if *s != (SubSpec{All: true}) {
			return "", formatError("subresources", "all, with members beside it: %+v", *s)
		}
		return "all", nil
	case s.IsIndex:
		if *s != (SubSpec{IsIndex: true, Index: s.Index}) {
			return "", formatError("subresources", "an index, with members beside it: %+v", *s)
		}
		return num(uint64(s.Index)), nil
	}
	var words []string
	for _, r := range []struct {
		kw  string
		has bool
		v   [2]uint32
	}{{"mips", s.HasMips, s.Mips}, {"slices", s.HasSlices, s.Slices}, {"planes", s.HasPlanes, s.Planes}} {
		switch {
		case r.has:
			words = append(words, fmt.Sprintf("%s %d+%d", r.kw, r.v[0], r.v[1]))
		case r.v != [2]uint32{}:
			return "", formatError("subresources", "%s %v without Has", r.kw, r.v)
		}
	}
	if len(words) == 0 || s.Index != 0 {
		return "", formatError("subresources", "neither all, an index nor ranges: %+v", *s)
	}
	return strings.Join(words, " "), nil
}

// legacyCall writes a ResourceBarrier call: `resource-barrier FORM` for
// one, a `resource-barriers` block otherwise.
func (f *formatter) legacyCall(c *Cmd) error {
	if err := rest(c, false, false, false, false, false, false, false, true); err != nil {
		return err
	}
	lines := make([]string, len(c.Legacy))
	for i := range c.Legacy {
		var err error
		if lines[i], err = f.legacyText(&c.Legacy[i]); err != nil {
			return fmt.Errorf("legacy barrier %d: %w", i+1, err)
		}
	}
	if len(lines) == 1 {
		f.line(1, "resource-barrier", lines[0])
		return nil
	}
	f.line(1, "resource-barriers")
	for _, l := range lines {
		f.line(2, l)
	}
	f.line(1, "end")
	return nil
}

// legacyText writes a legacy barrier as its form, or says which member
// the language cannot write.
func (f *formatter) legacyText(b *LegacySpec) (string, error) {
	res := func(n string) (string, error) {
		if n == "" {
			return "NULL", nil
		}
		return f.name("a legacy barrier", n)
	}
	var words []string
	var want legacy.Barrier
	x := b.Barrier
	switch x.Type {
	case legacy.TypeTransition:
		if b.Res == "" {
			return "", formatError("a transition", "it names no resource")
		}
		r, err := f.name("a transition", b.Res)
		if err != nil {
			return "", err
		}
		words = []string{"transition", r, statesWord(x.StateBefore), "->", statesWord(x.StateAfter)}
		want = legacy.Transition(0, x.Subresource, x.StateBefore, x.StateAfter)
		if x.Subresource != legacy.AllSubresources {
			words = append(words, "subresource", num(uint64(x.Subresource)))
		}
		switch x.Flags {
		case legacy.FlagBeginOnly:
			words = append(words, "begin")
		case legacy.FlagEndOnly:
			words = append(words, "end")
		}
		want.Flags = x.Flags & (legacy.FlagBeginOnly | legacy.FlagEndOnly)
		if want.Flags == legacy.FlagBeginOnly|legacy.FlagEndOnly {
			want.Flags = 0
		}
		if b.Before != "" || b.After != "" {
			return "", formatError("a transition", "it names aliasing resources")
		}
	case legacy.TypeUAV:
		r, err := res(b.Res)
		if err != nil {
			return "", err
		}
		words = []string{"uav", r}
		want = legacy.UAV(0)
		if b.Before != "" || b.After != "" {
			return "", formatError("a UAV barrier", "it names aliasing resources")
		}
	case legacy.TypeAliasing:
		before, err := res(b.Before)
		if err != nil {
			return "", err
		}
		after, err := res(b.After)
		if err != nil {
			return "", err
		}
		words = []string{"aliasing", before, after}
		want = legacy.Aliasing(0, 0)
		if b.Res != "" {
			return "", formatError("an aliasing barrier", "it names a resource beside its two")
		}
	default:
		return "", formatError("a legacy barrier", "type %d has no form", x.Type)
	}
	if want != x {
		return "", formatError("a legacy barrier", "it has members its form cannot write (handles are filled in at run time): %+v", x)
	}
	return strings.Join(words, " "), nil
}

// expect writes an expectation; it must hold nothing its kind does not
// write.
func (f *formatter) expect(e Expect) error {
	words := []string{"expect", e.Kind}
	got := e
	got.Pos = Pos{}
	want := Expect{Kind: e.Kind}
	views := func(vs []ViewRef) error {
		for _, v := range vs {
			w, err := f.view(v)
			if err != nil {
				return err
			}
			words = append(words, w)
		}
		return nil
	}
	switch e.Kind {
	case "reference", "detected":
		if err := views(e.Res); err != nil {
			return err
		}
		want.Res = e.Res
	case "bytes":
		if len(e.Res) != 1 {
			return formatError("expect bytes", "it names %d views, not one", len(e.Res))
		}
		if err := views(e.Res); err != nil {
			return err
		}
		data, err := bytesWords(e.Bytes, 0, true)
		if err != nil {
			return formatError("expect bytes", "%v", err)
		}
		words = append(append(words, "="), data...)
		want.Res, want.Bytes = e.Res, e.Bytes
	case "no-hazard":
	case "hazard":
		w := e.Hazard.String()
		if p, err := hwmodel.ParseHazardKind(w); err != nil || p != e.Hazard {
			return formatError("expect hazard", "hazard kind %d has no name", e.Hazard)
		}
		words = append(words, w)
		want.Hazard = e.Hazard
		if len(e.Res) > 1 {
			return formatError("expect hazard", "it names %d views; on takes one", len(e.Res))
		}
		if len(e.Res) == 1 {
			words = append(words, "on")
			if err := views(e.Res); err != nil {
				return err
			}
			want.Res = e.Res
		}
	case "error", "warning":
		id := num(uint64(e.ID))
		if messageIDs[e.ID.Name()] == e.ID && isName(e.ID.Name()) {
			id = e.ID.Name()
		}
		words = append(words, id)
		want.ID = e.ID
		if e.List != "" {
			l, err := f.name("expect "+e.Kind, e.List)
			if err != nil {
				return err
			}
			words = append(words, "in", l)
			want.List = e.List
		}
		if e.Field != "" {
			field := e.Field
			if toks, err := lex("", field); err != nil || len(toks) != 1 || len(toks[0].toks) != 1 || toks[0].toks[0].kind == tString ||
				toks[0].toks[0].text != field {
				// Not one word: the member's name in quotes.
				if field, err = quote(e.Field); err != nil {
					return formatError("expect "+e.Kind, "field: %v", err)
				}
			}
			words = append(words, "field", field)
			want.Field = e.Field
		}
		if e.Counted {
			words = append(words, "count", num(e.N))
			want.Counted, want.N = true, e.N
		}
		if e.Text != "" {
			s, err := quote(e.Text)
			if err != nil {
				return formatError("expect "+e.Kind, "text: %v", err)
			}
			words = append(words, "text", s)
			want.Text = e.Text
		}
	case "packets", "cost":
		if e.Kind == "packets" && e.List != "" {
			l, err := f.name("expect packets", e.List)
			if err != nil {
				return err
			}
			words = append(words, "in", l)
			want.List = e.List
		}
		if !isName(e.Op) {
			return formatError("expect "+e.Kind, "%q is not a word", e.Op)
		}
		if !slices.Contains([]string{"==", "<=", ">=", "<", ">"}, e.Cmp) {
			return formatError("expect "+e.Kind, "comparison %q is not one of ==, <=, >=, <, >", e.Cmp)
		}
		words = append(words, e.Op, e.Cmp, num(e.N))
		want.Op, want.Cmp, want.N = e.Op, e.Cmp, e.N
	default:
		return formatError("an expectation", "the language has no expectation %q", e.Kind)
	}
	if d := diff("", got, want); d != "" {
		return formatError("expect "+e.Kind, "it holds members its kind does not write: %s", d)
	}
	f.line(0, words...)
	return nil
}
