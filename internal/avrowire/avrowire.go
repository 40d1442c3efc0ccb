// Package avrowire checks Avro binary data against its schema before a
// decoder sees it. The decoder the portal uses (hamba/avro) trusts the
// block counts and lengths written in the data: one record a tenant
// produces can declare an array of 2^62 items and keep the decoder
// looping, or a map that takes the process's memory (GO-2026-5046, -5047,
// -5048; no release of that module fixes them). A record read in the
// message browser is anyone's input, so it is walked here first, in time
// and memory bounded by its length: every step consumes a byte or counts
// against a bound.
package avrowire

import (
	"errors"
	"fmt"
	"math"

	"github.com/hamba/avro/v2"
)

// Limits bound what one value may hold.
type Limits struct {
	// Items is the most array items and map entries in all, nested or
	// not; it bounds the walk over items that take no bytes (nulls).
	Items int
	// Depth is the deepest nesting of records, arrays, maps and unions.
	Depth int
}

// DefaultLimits are generous for real records and small for an attack.
var DefaultLimits = Limits{Items: 1 << 20, Depth: 128}

// Check walks data as schema's binary encoding and says what is wrong
// with it: a count or length that the data cannot hold, a union branch or
// enum symbol that does not exist, too many items, too deep a nesting, or
// bytes left over.
func Check(schema avro.Schema, data []byte, l Limits) error {
	w := &walker{data: data, limits: l}
	if err := w.value(schema, 0); err != nil {
		return fmt.Errorf("at byte %d: %w", w.pos, err)
	}
	if w.pos != len(data) {
		return fmt.Errorf("%d bytes left after the value", len(data)-w.pos)
	}
	return nil
}

type walker struct {
	data   []byte
	pos    int
	items  int
	limits Limits
}

var errShort = errors.New("the data ends inside the value")

// long reads a zig-zag varint of at most 10 bytes.
func (w *walker) long() (int64, error) {
	var u uint64
	for shift := uint(0); shift < 70; shift += 7 {
		if w.pos >= len(w.data) {
			return 0, errShort
		}
		b := w.data[w.pos]
		w.pos++
		u |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return int64(u>>1) ^ -int64(u&1), nil
		}
	}
	return 0, errors.New("a varint longer than 10 bytes")
}

// skip passes n bytes.
func (w *walker) skip(n int64) error {
	if n < 0 {
		return fmt.Errorf("a negative length %d", n)
	}
	if n > int64(len(w.data)-w.pos) {
		return fmt.Errorf("a length of %d bytes where %d are left", n, len(w.data)-w.pos)
	}
	w.pos += int(n)
	return nil
}

func (w *walker) value(s avro.Schema, depth int) error {
	if depth > w.limits.Depth {
		return fmt.Errorf("nested deeper than %d", w.limits.Depth)
	}
	switch t := s.(type) {
	case *avro.NullSchema:
		return nil
	case *avro.PrimitiveSchema:
		return w.primitive(t.Type())
	case *avro.FixedSchema:
		return w.skip(int64(t.Size()))
	case *avro.EnumSchema:
		i, err := w.long()
		if err == nil && (i < 0 || i >= int64(len(t.Symbols()))) {
			err = fmt.Errorf("enum symbol %d of %d", i, len(t.Symbols()))
		}
		return err
	case *avro.RecordSchema:
		for _, f := range t.Fields() {
			if err := w.value(f.Type(), depth+1); err != nil {
				return fmt.Errorf("field %s: %w", f.Name(), err)
			}
		}
		return nil
	case *avro.RefSchema:
		return w.value(t.Schema(), depth)
	case *avro.UnionSchema:
		i, err := w.long()
		if err != nil {
			return err
		}
		if i < 0 || i >= int64(len(t.Types())) {
			return fmt.Errorf("union branch %d of %d", i, len(t.Types()))
		}
		return w.value(t.Types()[i], depth+1)
	case *avro.ArraySchema:
		return w.blocks(depth, func() error { return w.value(t.Items(), depth+1) })
	case *avro.MapSchema:
		return w.blocks(depth, func() error {
			if err := w.primitive(avro.String); err != nil {
				return err
			}
			return w.value(t.Values(), depth+1)
		})
	}
	return fmt.Errorf("a schema of type %s the check does not know", s.Type())
}

func (w *walker) primitive(t avro.Type) error {
	switch t {
	case avro.Null:
		return nil
	case avro.Boolean:
		return w.skip(1)
	case avro.Int, avro.Long:
		_, err := w.long()
		return err
	case avro.Float:
		return w.skip(4)
	case avro.Double:
		return w.skip(8)
	case avro.String, avro.Bytes:
		n, err := w.long()
		if err != nil {
			return err
		}
		return w.skip(n)
	}
	return fmt.Errorf("a primitive of type %s the check does not know", t)
}

// blocks walks an array's or a map's blocks: a count (negative: followed
// by the block's size in bytes), that many items, until a count of zero.
func (w *walker) blocks(depth int, item func() error) error {
	if depth+1 > w.limits.Depth {
		return fmt.Errorf("nested deeper than %d", w.limits.Depth)
	}
	for {
		n, err := w.long()
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		if n == math.MinInt64 {
			return errors.New("a block count out of range")
		}
		if n < 0 {
			n = -n
			size, err := w.long()
			if err != nil {
				return err
			}
			if size < 0 || size > int64(len(w.data)-w.pos) {
				return fmt.Errorf("a block of %d bytes where %d are left", size, len(w.data)-w.pos)
			}
		}
		if n > int64(w.limits.Items-w.items) {
			return fmt.Errorf("more than %d items", w.limits.Items)
		}
		w.items += int(n)
		for range n {
			if err := item(); err != nil {
				return err
			}
		}
	}
}
