package gen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ebref/ebref/ddi"
)

// The work-argument checks: every resource member of every work command,
// given a handle of nothing, a destroyed resource, and where the member
// takes one the subresource just past the resource's, or a buffer range
// past the buffer's end or not aligned to 4 bytes. Each must be refused
// with the message its kind of mistake has, whichever command and member
// it is in (000 "Barrier API Call Validation" for handles; errata
// E-DESTROY).

// workArg is one resource member of a work command.
type workArg struct {
	list ddi.CommandListType
	cmd  string // the command, X where the member goes
	// kind is what the member takes: "buffer" (a range allowed), "texture"
	// (a subresource with @), "view" (a whole resource), and valid the
	// resource that fits it.
	kind, valid string
	// copyRole: a copy moves bytes, so its ranges need no 4-byte
	// alignment.
	copyRole bool
}

var workArgs = []workArg{
	{direct, "draw rt X", "view", "RT", false},
	{direct, "draw ds X", "view", "DS", false},
	{direct, "draw ds-write X", "view", "DS", false},
	{direct, "draw vs-srv X", "buffer", "BUF", false},
	{direct, "draw ps-srv X", "texture", "TEX", false},
	{direct, "draw vs-cbv X", "buffer", "BUF", false},
	{direct, "draw ps-cbv X", "buffer", "BUF", false},
	{direct, "draw vs-uav X", "buffer", "BUF", false},
	{direct, "draw ps-uav X", "texture", "UAVT", false},
	{direct, "draw vb X", "buffer", "BUF", false},
	{direct, "draw ib X", "buffer", "BUF", false},
	{direct, "draw so X", "buffer", "BUF", false},
	{direct, "draw args X", "buffer", "BUF", false},
	{direct, "draw shading-rate X", "view", "SRI", false},
	{compute, "dispatch srv X", "texture", "TEX", false},
	{compute, "dispatch cbv X", "buffer", "BUF", false},
	{compute, "dispatch uav X", "buffer", "BUF", false},
	{compute, "dispatch args X", "buffer", "BUF", false},
	{compute, "dispatch-rays as X", "view", "AS", false},
	{compute, "dispatch-rays srv X", "buffer", "BUF", false},
	{compute, "build-as X scratch BUF", "view", "AS", false},
	{compute, "build-as AS2 inputs X scratch BUF", "buffer", "BUF", false},
	{compute, "build-as AS2 source X scratch BUF", "view", "AS", false},
	{compute, "build-as AS2 scratch X", "buffer", "BUF", false},
	{compute, "copy-as X AS", "view", "AS2", false},
	{compute, "copy-as AS2 X", "view", "AS", false},
	{compute, "postbuild-info X AS", "buffer", "BUF", false},
	{compute, "postbuild-info BUF X", "view", "AS", false},
	{copyQ, "copy-buffer X 0 SRC 0 16", "view", "BUF", true},
	{copyQ, "copy-buffer BUF 0 X 0 16", "view", "SRC", true},
	{copyQ, "copy-resource X BUF2", "view", "BUF", true},
	{copyQ, "copy-resource BUF X", "view", "BUF2", true},
	{copyQ, "copy-texture X 0 0 0 TEX@0", "texture", "TEX2", true},
	{copyQ, "copy-texture TEX2@0 0 0 0 X", "texture", "TEX", true},
	{copyQ, "copy-texture-to-buffer X 0 TEX@0", "view", "BIG", true},
	{copyQ, "copy-texture-to-buffer BIG 0 X", "texture", "TEX", true},
	{copyQ, "copy-buffer-to-texture X BIG 0", "texture", "TEX", true},
	{copyQ, "copy-buffer-to-texture TEX@0 X 0", "view", "BIG", true},
	{direct, "resolve X MS@0", "texture", "RD", true},
	{direct, "resolve RD@0 X", "texture", "MS", true},
	{direct, "clear-rt X 1", "texture", "RT", false},
	{direct, "clear-ds X 1", "texture", "DS", false},
	{compute, "clear-uav X 1", "buffer", "BUF", false},
	{compute, "discard X", "view", "UAVT", false},
	{compute, "predication X 0", "view", "BUF", false},
	{compute, "atomic-copy X 0 BUF 0", "view", "BUF2", true},
	{compute, "atomic-copy BUF 0 X 0", "view", "BUF2", true},
	{vDecode, "decode in X out FRAME", "view", "BITS", false},
	{vDecode, "decode in BITS out X", "texture", "FRAME", false},
	{vProc, "process in X out FRAME2", "texture", "FRAME", false},
	{vEncode, "encode in X out BITS", "texture", "FRAME", false},
}

// workArgResources are the resources the commands name; DEAD and DEADT
// are destroyed before any list records.
var workArgResources = []string{
	"texture RT 32x32 flags RENDER_TARGET layout RENDER_TARGET",
	"texture DS 32x32 format D32_FLOAT flags DEPTH_STENCIL layout DEPTH_STENCIL_WRITE",
	"texture TEX 32x32 flags SHADER_RESOURCE layout COMMON",
	"texture TEX2 32x32 flags SHADER_RESOURCE layout COMMON",
	"texture UAVT 32x32 flags UNORDERED_ACCESS layout UNORDERED_ACCESS",
	"texture SRI 8x8 format R8_UINT layout SHADING_RATE_SOURCE",
	"texture MS 32x32 samples 4 flags RENDER_TARGET layout RESOLVE_SOURCE",
	"texture RD 32x32 flags RENDER_TARGET layout RESOLVE_DEST",
	"texture FRAME 64x64 format NV12 layout VIDEO_DECODE_WRITE",
	"texture FRAME2 64x64 format NV12 layout VIDEO_PROCESS_WRITE",
	"buffer BUF 4096 flags UNORDERED_ACCESS",
	"buffer BUF2 4096 flags UNORDERED_ACCESS",
	"buffer BIG 65536",
	"buffer SRC 4096 in upload",
	"buffer BITS 4096",
	"buffer AS 16384 flags RAYTRACING_ACCELERATION_STRUCTURE",
	"buffer AS2 16384 flags RAYTRACING_ACCELERATION_STRUCTURE",
	"buffer DEAD 4096 flags UNORDERED_ACCESS",
	"texture DEADT 32x32 flags RENDER_TARGET|UNORDERED_ACCESS|SHADER_RESOURCE layout COMMON",
	"destroy DEAD",
	"destroy DEADT",
}

func genWorkArgs() map[string]string {
	var g genFile
	g.header("every resource member of every work command, given a handle of nothing, a destroyed resource, a subresource or range past its resource (workargs.go)")
	for _, a := range workArgs {
		dead := "DEAD"
		if isTextureDecl(a.valid) {
			dead = "DEADT"
		}
		sub := ""
		if a.kind == "texture" {
			sub = "@0"
		}
		forms := []struct{ what, view, expect string }{
			{"a handle of nothing", "0xbeef" + sub, "EBREF_INVALID_HANDLE"},
			{"a destroyed resource", dead + sub, "EBREF_DESTROYED_OBJECT"},
		}
		switch a.kind {
		case "texture":
			forms = append(forms, struct{ what, view, expect string }{"the subresource just past the resource's",
				fmt.Sprintf("%s@%d", a.valid, subresourcesOfDecl(a.valid)), "EBREF_INVALID_WORK"})
		case "buffer":
			forms = append(forms, struct{ what, view, expect string }{"a range past the buffer's end", a.valid + "[4000+200]", "EBREF_INVALID_WORK"})
			if !a.copyRole {
				forms = append(forms, struct{ what, view, expect string }{"a range not aligned to 4 bytes", a.valid + "[2+8]", "EBREF_INVALID_WORK"})
			}
		}
		// The member with a resource that fits it: the command records
		// with no error, so the errors above are the member's.
		ok := a.valid + sub
		if a.kind == "buffer" {
			ok = a.valid + "[0+8]"
		}
		g.section(fmt.Sprintf("%s on a %s list: a resource that fits", withArg(a.cmd, "[X]"), a.list),
			append(append([]string{}, workArgResources...), "list L "+a.list.String(), "  "+withArg(a.cmd, ok), "end")...)
		for _, f := range forms {
			lines := append([]string{}, workArgResources...)
			lines = append(lines, "list L "+a.list.String(), "  "+withArg(a.cmd, f.view), "end",
				fmt.Sprintf("expect error %s in L", f.expect))
			g.section(fmt.Sprintf("%s on a %s list: %s", withArg(a.cmd, "[X]"), a.list, f.what), lines...)
		}
	}
	return map[string]string{"work-args.ebs": g.text()}
}

// withArg puts v in the place of the word X of a command.
func withArg(cmd, v string) string {
	f := strings.Fields(cmd)
	for i := range f {
		if f[i] == "X" {
			f[i] = v
		}
	}
	return strings.Join(f, " ")
}

// isTextureDecl reports whether workArgResources declares name a texture.
func isTextureDecl(name string) bool {
	return slices.ContainsFunc(workArgResources, func(d string) bool { return strings.HasPrefix(d, "texture "+name+" ") })
}

// subresourcesOfDecl is how many subresources a texture of
// workArgResources has: an NV12 frame two planes, the others one.
func subresourcesOfDecl(name string) int {
	if slices.ContainsFunc(workArgResources, func(d string) bool {
		return strings.HasPrefix(d, "texture "+name+" ") && strings.Contains(d, "format NV12")
	}) {
		return 2
	}
	return 1
}
