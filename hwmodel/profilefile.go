package hwmodel

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/ebref/ebref/cmdbuf"
)

// Profile files. A hardware profile is data: a JSON document (docs/hardware.md
// "Profile files" has the format) that ParseProfile reads and
// Profile.MarshalFile writes. The built-in profiles are such files,
// embedded (profiles/*.json). A profile file is untrusted input: it is
// read whole up to MaxProfileFileBytes, nested at most maxProfileDepth
// deep, and every error names the file, the line and the key.

// ProfileFormat is the value of a profile file's "format" key.
const ProfileFormat = "ebref-profile/1"

// MaxProfileFileBytes bounds a profile file (a built-in one is about 5 KiB).
const MaxProfileFileBytes = 64 << 10

// maxProfileDepth bounds the nesting of a profile file (its format needs 3).
const maxProfileDepth = 8

// The bounds of a profile's other fields.
const (
	maxProfileName   = 31 // the translator protocol's name field holds 31 bytes and a NUL
	maxDescription   = 4096
	maxSources       = 32
	maxSourceLen     = 1024
	maxCostPerPacket = 1 << 12
	maxCost          = 1 << 16
)

// ErrProfile is what every error of a profile file wraps: test it with
// errors.Is; errors.As finds the *ProfileError.
var ErrProfile = errors.New("bad hardware profile")

// ProfileError is a profile file's error: the file, the line (1-based; 0
// when the error concerns the whole file), the key (a path such as
// routes.DIRECT.COLOR or caches[2].parent; "" for the document) and what
// is wrong.
type ProfileError struct {
	File string
	Line int
	Key  string
	Msg  string
}

func (e *ProfileError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Key != "" {
		fmt.Fprintf(&b, ": %s", e.Key)
	}
	fmt.Fprintf(&b, ": %s", e.Msg)
	return b.String()
}

// Unwrap makes every ProfileError an ErrProfile.
func (e *ProfileError) Unwrap() error { return ErrProfile }

// RuleError is a profile that cannot be a GPU: the key it concerns (as
// ProfileError names keys) and the rule it breaks. Validate returns it.
type RuleError struct {
	Profile string
	Key     string
	Rule    string
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("profile %s: %s: %s", e.Profile, e.Key, e.Rule)
}

// Unwrap makes every RuleError an ErrProfile.
func (e *RuleError) Unwrap() error { return ErrProfile }

// jnode is one JSON value of a profile file and where it ends.
type jnode struct {
	off    int64 // byte offset just past the value's first token
	kind   byte  // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	fields []jfield
	elems  []*jnode
	str    string
	num    json.Number
	b      bool
}

type jfield struct {
	key string
	off int64 // just past the key
	val *jnode
}

var kindNames = map[byte]string{'o': "an object", 'a': "an array", 's': "a string", 'n': "a number", 'b': "true or false", 'z': "null"}

// profileReader turns a file into a Profile, remembering where each key is.
type profileReader struct {
	file string
	data []byte
	at   map[string]int64 // key path -> offset, for rule errors
}

func (r *profileReader) line(off int64) int {
	if off > int64(len(r.data)) {
		off = int64(len(r.data))
	}
	if off < 0 {
		off = 0
	}
	return 1 + bytes.Count(r.data[:off], []byte{'\n'})
}

func (r *profileReader) errAt(off int64, key, format string, args ...any) error {
	return &ProfileError{File: r.file, Line: r.line(off), Key: key, Msg: fmt.Sprintf(format, args...)}
}

// parse reads the document into a tree, refusing duplicate keys, nesting
// past maxProfileDepth and anything after the document.
func (r *profileReader) parse() (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(r.data))
	dec.UseNumber()
	n, err := r.value(dec, "", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, r.errAt(dec.InputOffset(), "", "more after the profile's closing brace")
	}
	return n, nil
}

func (r *profileReader) token(dec *json.Decoder, key string) (json.Token, error) {
	t, err := dec.Token()
	if err == nil {
		return t, nil
	}
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return nil, r.errAt(se.Offset, key, "not JSON: %v", se)
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return nil, r.errAt(int64(len(r.data)), key, "the file ends inside the profile")
	}
	return nil, r.errAt(dec.InputOffset(), key, "not JSON: %v", err)
}

func (r *profileReader) value(dec *json.Decoder, key string, depth int) (*jnode, error) {
	t, err := r.token(dec, key)
	if err != nil {
		return nil, err
	}
	n := &jnode{off: dec.InputOffset()}
	switch v := t.(type) {
	case json.Delim:
		if depth >= maxProfileDepth {
			return nil, r.errAt(n.off, key, "nested deeper than %d levels", maxProfileDepth)
		}
		if v == '{' {
			n.kind = 'o'
			first := map[string]int64{}
			for dec.More() {
				kt, err := r.token(dec, key)
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				koff := dec.InputOffset()
				path := join(key, k)
				if at, dup := first[k]; dup {
					return nil, r.errAt(koff, path, "a duplicate key (first on line %d)", r.line(at))
				}
				first[k] = koff
				val, err := r.value(dec, path, depth+1)
				if err != nil {
					return nil, err
				}
				n.fields = append(n.fields, jfield{k, koff, val})
			}
		} else {
			n.kind = 'a'
			for i := 0; dec.More(); i++ {
				val, err := r.value(dec, fmt.Sprintf("%s[%d]", key, i), depth+1)
				if err != nil {
					return nil, err
				}
				n.elems = append(n.elems, val)
			}
		}
		if _, err := r.token(dec, key); err != nil { // the closing delimiter
			return nil, err
		}
	case string:
		n.kind, n.str = 's', v
	case json.Number:
		n.kind, n.num = 'n', v
	case bool:
		n.kind, n.b = 'b', v
	case nil:
		n.kind = 'z'
	}
	return n, nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// object checks that n is an object with exactly the keys named (all
// required) and returns them by name.
func (r *profileReader) object(n *jnode, key string, keys ...string) (map[string]*jnode, error) {
	if n.kind != 'o' {
		return nil, r.errAt(n.off, key, "%s, not an object", kindNames[n.kind])
	}
	out := map[string]*jnode{}
	for _, f := range n.fields {
		if !slices.Contains(keys, f.key) {
			return nil, r.errAt(f.off, join(key, f.key), "an unknown key (%s has %s)", orDoc(key), strings.Join(keys, ", "))
		}
		out[f.key] = f.val
		r.at[join(key, f.key)] = f.off
	}
	for _, k := range keys {
		if _, ok := out[k]; !ok {
			return nil, r.errAt(n.off, join(key, k), "missing")
		}
	}
	return out, nil
}

func orDoc(key string) string {
	if key == "" {
		return "a profile"
	}
	return key
}

func (r *profileReader) str(n *jnode, key string, max int) (string, error) {
	if n.kind != 's' {
		return "", r.errAt(n.off, key, "%s, not a string", kindNames[n.kind])
	}
	if len(n.str) > max {
		return "", r.errAt(n.off, key, "%d bytes; at most %d", len(n.str), max)
	}
	return n.str, nil
}

func (r *profileReader) boolean(n *jnode, key string) (bool, error) {
	if n.kind != 'b' {
		return false, r.errAt(n.off, key, "%s, not true or false", kindNames[n.kind])
	}
	return n.b, nil
}

func (r *profileReader) cost(n *jnode, key string, lo, hi uint64) (uint64, error) {
	if n.kind != 'n' {
		return 0, r.errAt(n.off, key, "%s, not a number", kindNames[n.kind])
	}
	v, err := strconv.ParseUint(n.num.String(), 10, 64)
	if err != nil || v < lo || v > hi {
		return 0, r.errAt(n.off, key, "%s is out of range: a cost is a whole number of cycles from %d to %d", n.num, lo, hi)
	}
	return v, nil
}

// cacheName reads a cache kind, or (memoryOK) MEMORY.
func (r *profileReader) cacheName(n *jnode, key string, memoryOK bool) (cmdbuf.Cache, error) {
	s, err := r.str(n, key, 64)
	if err != nil {
		return 0, err
	}
	if memoryOK && s == "MEMORY" {
		return Memory, nil
	}
	for c := cmdbuf.Cache(0); c < cmdbuf.NumCaches; c++ {
		if c.String() == s {
			return c, nil
		}
	}
	have := []string{}
	for c := cmdbuf.Cache(0); c < cmdbuf.NumCaches; c++ {
		have = append(have, c.String())
	}
	if memoryOK {
		have = append(have, "MEMORY")
	}
	return 0, r.errAt(n.off, key, "%q is not a cache kind (have %s)", s, strings.Join(have, ", "))
}

// The keys of a profile file, in the order MarshalFile writes them.
var (
	profileKeys  = []string{"format", "name", "description", "sources", "caches", "routes", "decodes_compression", "compresses", "costs"}
	cacheKeys    = []string{"kind", "parent", "shared", "read_only"}
	compressKeys = []string{"render_target", "depth_stencil", "unordered_access"}
	costKeys     = []string{"packet", "wait_base", "cache_op_base", "flush_per_line", "inval_per_line", "decompress_per_kib", "metadata_per_byte", "batch_end_base"}
)

func engineNames() []string {
	var out []string
	for e := EngineKind(0); e < NumEngineKinds; e++ {
		out = append(out, e.String())
	}
	return out
}

func clientNames() []string {
	var out []string
	for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
		out = append(out, c.String())
	}
	return out
}

// costFields are a Costs' fields in costKeys' order.
func (c *Costs) fields() []*uint64 {
	return []*uint64{&c.Packet, &c.WaitBase, &c.CacheOpBase, &c.FlushPerLine, &c.InvalPerLine, &c.DecompressPerKB, &c.MetadataPerByte, &c.BatchEndBase}
}

// ParseProfile reads a profile file (file names it in errors) and checks
// it: the format, every key present once and no other, each value's type
// and range, and every rule Validate checks. Every error is a
// *ProfileError naming the file, line and key.
func ParseProfile(file string, data []byte) (*Profile, error) {
	if len(data) > MaxProfileFileBytes {
		return nil, &ProfileError{File: file, Msg: fmt.Sprintf("%d bytes; a profile file is at most %d", len(data), MaxProfileFileBytes)}
	}
	r := &profileReader{file: file, data: data, at: map[string]int64{}}
	root, err := r.parse()
	if err != nil {
		return nil, err
	}
	p, err := r.profile(root)
	if err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		var re *RuleError
		if errors.As(err, &re) {
			return nil, r.errAt(r.at[re.Key], re.Key, "%s", re.Rule)
		}
		return nil, &ProfileError{File: file, Msg: err.Error()}
	}
	return p, nil
}

func (r *profileReader) profile(root *jnode) (*Profile, error) {
	top, err := r.object(root, "", profileKeys...)
	if err != nil {
		return nil, err
	}
	format, err := r.str(top["format"], "format", 64)
	if err != nil {
		return nil, err
	}
	if format != ProfileFormat {
		return nil, r.errAt(top["format"].off, "format", "%q; this ebref reads %q", format, ProfileFormat)
	}
	p := &Profile{}
	if p.Name, err = r.str(top["name"], "name", maxProfileName); err != nil {
		return nil, err
	}
	if !validProfileName(p.Name) {
		return nil, r.errAt(top["name"].off, "name", "%q: a name is 1 to %d of a-z, 0-9, '.', '_' and '-', starting with a letter or digit", p.Name, maxProfileName)
	}
	if p.Description, err = r.str(top["description"], "description", maxDescription); err != nil {
		return nil, err
	}
	if p.Description == "" {
		return nil, r.errAt(top["description"].off, "description", "empty: say what the profile is and where its facts come from")
	}
	src := top["sources"]
	if src.kind != 'a' {
		return nil, r.errAt(src.off, "sources", "%s, not an array", kindNames[src.kind])
	}
	if len(src.elems) > maxSources {
		return nil, r.errAt(src.off, "sources", "%d sources; at most %d", len(src.elems), maxSources)
	}
	for i, e := range src.elems {
		s, err := r.str(e, fmt.Sprintf("sources[%d]", i), maxSourceLen)
		if err != nil {
			return nil, err
		}
		p.Sources = append(p.Sources, s)
	}
	if err := r.caches(p, top["caches"]); err != nil {
		return nil, err
	}
	if err := r.routes(p, top["routes"]); err != nil {
		return nil, err
	}
	if err := r.aware(p, top["decodes_compression"]); err != nil {
		return nil, err
	}
	comp, err := r.object(top["compresses"], "compresses", compressKeys...)
	if err != nil {
		return nil, err
	}
	for i, f := range []*bool{&p.Compresses.RenderTarget, &p.Compresses.DepthStencil, &p.Compresses.UnorderedAccess} {
		k := compressKeys[i]
		if *f, err = r.boolean(comp[k], "compresses."+k); err != nil {
			return nil, err
		}
	}
	costs, err := r.object(top["costs"], "costs", costKeys...)
	if err != nil {
		return nil, err
	}
	for i, f := range p.Costs.fields() {
		k := costKeys[i]
		lo, hi := uint64(0), uint64(maxCost)
		if k == "packet" {
			lo, hi = 1, maxCostPerPacket
		}
		if *f, err = r.cost(costs[k], "costs."+k, lo, hi); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func validProfileName(s string) bool {
	if s == "" || len(s) > maxProfileName {
		return false
	}
	for i, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
}

func (r *profileReader) caches(p *Profile, n *jnode) error {
	if n.kind != 'a' {
		return r.errAt(n.off, "caches", "%s, not an array", kindNames[n.kind])
	}
	if len(n.elems) > int(cmdbuf.NumCaches) {
		return r.errAt(n.off, "caches", "%d caches; there are %d kinds", len(n.elems), cmdbuf.NumCaches)
	}
	for i, e := range n.elems {
		key := fmt.Sprintf("caches[%d]", i)
		f, err := r.object(e, key, cacheKeys...)
		if err != nil {
			return err
		}
		var s CacheSpec
		if s.Kind, err = r.cacheName(f["kind"], key+".kind", false); err != nil {
			return err
		}
		if s.Parent, err = r.cacheName(f["parent"], key+".parent", true); err != nil {
			return err
		}
		if s.Shared, err = r.boolean(f["shared"], key+".shared"); err != nil {
			return err
		}
		if s.ReadOnly, err = r.boolean(f["read_only"], key+".read_only"); err != nil {
			return err
		}
		p.Caches = append(p.Caches, s)
	}
	return nil
}

func (r *profileReader) routes(p *Profile, n *jnode) error {
	engines, err := r.object(n, "routes", engineNames()...)
	if err != nil {
		return err
	}
	for e := EngineKind(0); e < NumEngineKinds; e++ {
		key := "routes." + e.String()
		cs, err := r.object(engines[e.String()], key, clientNames()...)
		if err != nil {
			return err
		}
		for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
			if p.Route[e][c], err = r.cacheName(cs[c.String()], key+"."+c.String(), true); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *profileReader) aware(p *Profile, n *jnode) error {
	engines, err := r.object(n, "decodes_compression", engineNames()...)
	if err != nil {
		return err
	}
	for e := EngineKind(0); e < NumEngineKinds; e++ {
		key := "decodes_compression." + e.String()
		l := engines[e.String()]
		if l.kind != 'a' {
			return r.errAt(l.off, key, "%s, not an array of client names", kindNames[l.kind])
		}
		if len(l.elems) > int(cmdbuf.NumClients) {
			return r.errAt(l.off, key, "%d clients; there are %d", len(l.elems), cmdbuf.NumClients)
		}
		for i, c := range l.elems {
			ck := fmt.Sprintf("%s[%d]", key, i)
			s, err := r.str(c, ck, 64)
			if err != nil {
				return err
			}
			k := slices.Index(clientNames(), s)
			if k < 0 {
				return r.errAt(c.off, ck, "%q is not a client (have %s)", s, strings.Join(clientNames(), ", "))
			}
			if p.Aware[e][k] {
				return r.errAt(c.off, ck, "%s is named twice", s)
			}
			p.Aware[e][k] = true
		}
		r.at[key] = l.off
	}
	return nil
}

// MarshalFile writes the profile as a profile file: the keys in the
// format's order, one cache, engine or cost a line. ParseProfile of it
// gives an equal Profile.
func (p *Profile) MarshalFile() []byte {
	var b bytes.Buffer
	q := func(s string) string {
		v, _ := json.Marshal(s)
		return string(v)
	}
	cache := func(c cmdbuf.Cache) string {
		if c == Memory {
			return q("MEMORY")
		}
		return q(c.String())
	}
	fmt.Fprintf(&b, "{\n  \"format\": %s,\n  \"name\": %s,\n  \"description\": %s,\n  \"sources\": [", q(ProfileFormat), q(p.Name), q(p.Description))
	for i, s := range p.Sources {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n    %s", q(s))
	}
	if len(p.Sources) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("],\n  \"caches\": [")
	for i, s := range p.Caches {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n    {\"kind\": %s, \"parent\": %s, \"shared\": %t, \"read_only\": %t}", cache(s.Kind), cache(s.Parent), s.Shared, s.ReadOnly)
	}
	if len(p.Caches) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("],\n  \"routes\": {")
	for e := EngineKind(0); e < NumEngineKinds; e++ {
		if e > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n    %s: {", q(e.String()))
		for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
			if c > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s: %s", q(c.String()), cache(p.Route[e][c]))
		}
		b.WriteString("}")
	}
	b.WriteString("\n  },\n  \"decodes_compression\": {")
	for e := EngineKind(0); e < NumEngineKinds; e++ {
		if e > 0 {
			b.WriteString(",")
		}
		var cs []string
		for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
			if p.Aware[e][c] {
				cs = append(cs, q(c.String()))
			}
		}
		fmt.Fprintf(&b, "\n    %s: [%s]", q(e.String()), strings.Join(cs, ", "))
	}
	fmt.Fprintf(&b, "\n  },\n  \"compresses\": {\"render_target\": %t, \"depth_stencil\": %t, \"unordered_access\": %t},\n  \"costs\": {",
		p.Compresses.RenderTarget, p.Compresses.DepthStencil, p.Compresses.UnorderedAccess)
	for i, f := range p.Costs.fields() {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s: %d", q(costKeys[i]), *f)
	}
	b.WriteString("}\n}\n")
	return b.Bytes()
}

// ProfileDigest identifies a profile file's content: "sha256:" and the
// hex digest of its bytes.
func ProfileDigest(data []byte) string {
	h := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(h[:])
}

// ReadProfileFile reads and parses a profile file, reading no more than
// MaxProfileFileBytes+1 bytes of it. It returns the profile and the
// file's digest (ProfileDigest).
func ReadProfileFile(path string) (*Profile, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %w", ErrProfile, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxProfileFileBytes+1))
	if err != nil {
		return nil, "", &ProfileError{File: path, Msg: err.Error()}
	}
	p, err := ParseProfile(path, data)
	if err != nil {
		return nil, "", err
	}
	return p, ProfileDigest(data), nil
}

//go:embed profiles/*.json
var builtinFiles embed.FS

// builtinOrder is the built-in profiles' documented order (docs/hardware.md).
var builtinOrder = []string{"discrete", "unified3d", "coherent", "rdna", "xe"}

// loadBuiltins parses the embedded profile files; a bad one is a build
// that must not run (TestBuiltinProfilesAreFiles keeps them good).
func loadBuiltins() []*Profile {
	var out []*Profile
	for _, n := range builtinOrder {
		name := "profiles/" + n + ".json"
		data, err := builtinFiles.ReadFile(name)
		if err != nil {
			panic(fmt.Sprintf("hwmodel: built-in profile %s: %v", n, err))
		}
		p, err := ParseProfile("hwmodel/"+name, data)
		if err != nil {
			panic(fmt.Sprintf("hwmodel: built-in profile: %v", err))
		}
		if p.Name != n {
			panic(fmt.Sprintf("hwmodel: built-in profile file %s names %q", name, p.Name))
		}
		out = append(out, p)
	}
	return out
}

// BuiltinProfileFile returns a built-in profile's embedded file.
func BuiltinProfileFile(name string) ([]byte, bool) {
	if !slices.Contains(builtinOrder, name) {
		return nil, false
	}
	data, err := builtinFiles.ReadFile("profiles/" + name + ".json")
	return data, err == nil
}
