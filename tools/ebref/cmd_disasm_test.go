package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func rawWords(words []uint32) []byte {
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path
}

func TestDisasmDumpRawAndCalls(t *testing.T) {
	var w []uint32
	w = cmdbuf.AppendMarker(w, 7, "Barrier call 1, barrier 0")
	w = cmdbuf.AppendWait(w, cmdbuf.Wait{Drain: cmdbuf.StageColor.Mask(), Hold: cmdbuf.AllStages})
	w = cmdbuf.AppendCache(w, cmdbuf.CacheOp{Flush: cmdbuf.CacheColor.Mask(), Invalidate: cmdbuf.CacheTextureL0.Mask(), Addr: 0x10000, Size: 0x4000}, false)
	w = cmdbuf.AppendCall(w, cmdbuf.Call{Buffer: 3})
	b := cmdbuf.NewBuffer(8) // small chunks: the dump chains
	b.Append(w)
	var dump bytes.Buffer
	require.NoError(t, b.Dump(&dump))
	dumpPath := writeFile(t, "list.ebcb", dump.Bytes())
	callee := writeFile(t, "callee.bin", rawWords(cmdbuf.AppendWait(nil, cmdbuf.Wait{Drain: cmdbuf.StageCompute.Mask(), Hold: cmdbuf.StageCompute.Mask()})))

	code, stdout, stderr := ebref(t, nil, "disasm", dumpPath)
	require.Equal(t, 0, code, stderr)
	assert.Empty(t, stderr)
	assert.Contains(t, stdout, `MARKER tag=0x00000007 "Barrier call 1, barrier 0"`)
	assert.Contains(t, stdout, "WAIT drain=COLOR hold=ALL")
	assert.Contains(t, stdout, "CACHE flush=COLOR inval=TEXTURE_L0 range=0x10000+0x4000")
	assert.Contains(t, stdout, "CHAIN next=1")
	assert.Contains(t, stdout, "CALL buffer=3")
	assert.NotContains(t, stdout, "drain=COMPUTE", "CALLs are not expanded without --call")

	code, stdout, stderr = ebref(t, nil, "disasm", "--call", "3="+callee, dumpPath)
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `\n\s+0 {4}WAIT drain=COMPUTE hold=COMPUTE\n`, stdout, "the callee is listed indented")

	// Raw dwords from standard input, as JSON lines.
	code, stdout, _ = ebref(t, rawWords(w), "disasm", "-", "--json")
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 4)
	var l cmdbuf.Line
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &l))
	assert.Equal(t, "WAIT", l.Op)
	assert.Equal(t, "drain=COLOR hold=ALL", l.Text)
}

func TestDisasmBadInput(t *testing.T) {
	good := cmdbuf.AppendWait(nil, cmdbuf.Wait{Drain: cmdbuf.StageCP.Mask(), Hold: cmdbuf.StageCP.Mask()})
	bad := append(append([]uint32{}, good...), uint32(cmdbuf.MakeHeader(0x7f, 0, 1)), 0)
	bad = append(bad, uint32(cmdbuf.MakeHeader(cmdbuf.OpWait, 0, 9)))

	code, stdout, stderr := ebref(t, rawWords(bad), "disasm", "-")
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, "WAIT drain=CP hold=CP", "good packets are still listed")
	assert.Contains(t, stdout, "unknown opcode 0x7f")
	assert.Equal(t, "ebref disasm: standard input: 2 bad packets; the first, at dword 3: dword 3 (header 0x0000017f): unknown opcode 0x7f (1 payload dwords skipped)\n", stderr)

	code, _, stderr = ebref(t, []byte{1, 2, 3, 4, 5}, "disasm", "-")
	assert.Equal(t, 2, code)
	assert.Equal(t, "ebref disasm: standard input: raw packet dwords: 5 bytes is not a whole number of dwords (1 left over at byte 4)\n", stderr)

	code, _, stderr = ebref(t, []byte("EBCB\x02\x00\x00\x00\x00\x00\x00\x00"), "disasm", "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "standard input: not a command-buffer dump: version 2 at byte 4")

	code, _, stderr = ebref(t, nil, "disasm", filepath.Join(t.TempDir(), "missing.bin"))
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "no such file or directory")

	code, _, stderr = ebref(t, rawWords(good), "disasm", "-", "--call", "x=y")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `buffer id "x" is not a 32-bit number`)

	code, _, stderr = ebref(t, rawWords(good), "disasm", "-", "--call", "1="+filepath.Join(t.TempDir(), "nope"))
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "ebref disasm: --call 1: open")

	code, _, stderr = ebref(t, nil, "disasm", "-")
	assert.Equal(t, 0, code)
	assert.Equal(t, "ebref disasm: standard input: no packets\n", stderr)
}
