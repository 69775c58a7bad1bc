package translator_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd"
	"github.com/ebref/ebref/umd/translator"
)

// FuzzDecodeRequest: any bytes decode to a request that validates, or
// to an error; never a panic.
func FuzzDecodeRequest(f *testing.F) {
	f.Add(translator.AppendRequest(nil, globalRequest())[translator.FrameHeaderSize:])
	f.Add(make([]byte, translator.RequestHeaderSize))
	f.Fuzz(func(t *testing.T, b []byte) {
		var r translator.Request
		if err := translator.DecodeRequest(b, &r); err != nil {
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("decoded a request that does not validate: %v", err)
		}
		// The reference translates it or refuses it; its reply is checked.
		p, _ := hwmodel.LookupProfile("discrete")
		words, err := umd.NewReference(p).Translate(&r, nil)
		if err == nil {
			_ = translator.Check(&r, words)
		}
	})
}

// FuzzDecodeProfile: any bytes decode to a profile that validates, or to
// an error.
func FuzzDecodeProfile(f *testing.F) {
	for _, p := range hwmodel.Profiles() {
		f.Add(translator.AppendProfile(nil, 1, p)[translator.FrameHeaderSize:])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, p, err := translator.DecodeProfile(b)
		if err == nil {
			if err := p.Validate(); err != nil {
				t.Fatalf("decoded a profile that does not validate: %v", err)
			}
		}
	})
}

// FuzzServe: whatever a host sends, Serve answers or ends with an error;
// never a panic, and it stops at the end of its input.
func FuzzServe(f *testing.F) {
	p, _ := hwmodel.LookupProfile("discrete")
	session := translator.AppendHello(nil)
	session = translator.AppendProfile(session, 1, p)
	req := globalRequest()
	req.Profile = 1
	session = translator.AppendRequest(session, req)
	f.Add(session)
	f.Add(translator.AppendHello(nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = translator.Serve(bytes.NewReader(b), io.Discard, "fuzz", umd.ReferenceOpener{}.Open)
	})
}

// FuzzCheck: any reply is accepted or refused with an error naming a
// dword inside it.
func FuzzCheck(f *testing.F) {
	f.Add([]byte{0x20, 0x02, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		words := make([]uint32, len(b)/4)
		for i := range words {
			words[i] = uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
		}
		err := translator.Check(globalRequest(), words)
		if re, ok := err.(*translator.ReplyError); ok && (re.Dword < 0 || re.Dword >= len(words)) {
			t.Fatalf("dword %d of a %d-dword reply", re.Dword, len(words))
		}
	})
}
