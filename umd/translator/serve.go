package translator

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/ebref/ebref/hwmodel"
)

// Serve is the translator's side of the protocol over in and out (its
// standard input and output): the hello, then each profile opened with
// open and answered with its compression policy (a Translator that is a
// Policer declares one), each request translated and answered, until in
// ends. A translator's error is sent as a refusal; a protocol error ends
// Serve. On Linux, an in or out that is a pipe is reopened non-blocking
// for Serve's own use (servedIO): the descriptors given keep their flags.
func Serve(in io.Reader, out io.Writer, name string, open func(p *hwmodel.Profile) (Translator, error)) error {
	in, out, done := servedIO(in, out)
	defer done()
	r, w := bufio.NewReaderSize(in, 1<<16), bufio.NewWriterSize(out, 1<<16)
	version, _, _, err := readHello(r, "host")
	if err != nil {
		return err
	}
	if version != Version {
		return fmt.Errorf("the host speaks version %d; this translator speaks %d", version, Version)
	}
	name = name[:min(len(name), MaxNameLen)]
	hello := le.AppendUint32(nil, Magic)
	hello = le.AppendUint32(hello, Version)
	hello = le.AppendUint32(hello, uint32(len(name)))
	hello = le.AppendUint32(hello, HelloDeclaresPolicy)
	hello = append(hello, name...)
	hello = append(hello, make([]byte, (4-len(name)%4)%4)...)
	if _, err := w.Write(hello); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	translators := map[uint32]Translator{}
	var (
		body  []byte
		req   Request
		words []uint32
		reply []byte
	)
	for {
		op, size, err := readFrameHeader(r)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		limit := MaxRequestBytes
		if op == OpProfile {
			limit = MaxProfileBytes
		}
		if size > uint32(limit) {
			return wireErr("frame", 4, "a %d-byte body; at most %d", size, limit)
		}
		body = append(body[:0], make([]byte, size)...)
		if _, err := io.ReadFull(r, body); err != nil {
			return fmt.Errorf("frame body: %w", err)
		}
		switch op {
		case OpProfile:
			id, p, err := DecodeProfile(body)
			if err != nil {
				return err
			}
			t, err := open(p)
			if err != nil {
				return fmt.Errorf("opening profile %s: %w", p.Name, err)
			}
			translators[id] = t
			var pol Policy
			declared := false
			if pp, ok := t.(Policer); ok {
				pol, declared = pp.Policy()
			}
			if _, err := w.Write(AppendPolicy(reply[:0], id, pol, declared)); err != nil {
				return err
			}
			if err := flushIdle(r, w); err != nil {
				return err
			}
			continue
		case OpRequest:
		default:
			return wireErr("frame", 0, "opcode %d is not a host's frame", op)
		}
		if err := DecodeRequest(body, &req); err != nil {
			return err
		}
		t, ok := translators[req.Profile]
		reply = reply[:0]
		switch {
		case !ok:
			reply = AppendRefusal(reply, fmt.Sprintf("no profile numbered %d was sent", req.Profile))
		default:
			words, err = t.Translate(&req, words[:0])
			if err != nil {
				reply = AppendRefusal(reply, err.Error())
			} else {
				reply = AppendReply(reply, words)
			}
		}
		if _, err := w.Write(reply); err != nil {
			return err
		}
		if err := flushIdle(r, w); err != nil {
			return err
		}
	}
}

// flushIdle sends what w holds unless r already holds more of the host's
// bytes: the answers to frames that came together (a profile and the
// request after it) leave in one write. The host writes whole frames, so
// bytes buffered are a frame arriving, never one waiting for this answer.
func flushIdle(r *bufio.Reader, w *bufio.Writer) error {
	if r.Buffered() > 0 {
		return nil
	}
	return w.Flush()
}

// readFrameHeader reads a frame's opcode and body size (io.EOF at a clean
// end between frames) from r's buffer: an array read through io.Reader
// escaped, an allocation on each side of every round trip.
func readFrameHeader(r *bufio.Reader) (op, size uint32, err error) {
	h, err := peekFull(r, FrameHeaderSize)
	if err != nil {
		return 0, 0, err
	}
	op, size = le.Uint32(h), le.Uint32(h[4:])
	r.Discard(FrameHeaderSize)
	return op, size, nil
}

// peekFull is the next n bytes of r, not yet consumed (n at most r's
// buffer): io.EOF if r ends before them, io.ErrUnexpectedEOF if it ends
// among them, as io.ReadFull says.
func peekFull(r *bufio.Reader, n int) ([]byte, error) {
	b, err := r.Peek(n)
	switch {
	case err == nil:
		return b, nil
	case errors.Is(err, io.EOF) && len(b) > 0:
		return nil, io.ErrUnexpectedEOF
	}
	return nil, err
}
