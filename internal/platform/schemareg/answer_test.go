package schemareg

import (
	"bytes"
	"io"
	"net/http"
	"runtime"
	"testing"
)

// TestAnswersAreReadIntoKeptBuffers: the registry's answers are read into
// buffers kept between calls, so that reading a megabyte answer, chunked
// (no length given) or not, mostly allocates nothing once a buffer is
// kept (with io.ReadAll each cost about three times its size); a buffer
// larger than keptAnswer is not kept; an answer shorter than it said is
// read as it comes.
func TestAnswersAreReadIntoKeptBuffers(t *testing.T) {
	r := &Registry{}
	body := bytes.Repeat([]byte("s"), 1_200_000)
	answer := func(length int64, b []byte) *http.Response {
		return &http.Response{ContentLength: length, Body: io.NopCloser(bytes.NewReader(b))}
	}
	read := func(resp *http.Response) []byte {
		data, done := r.readAnswer(resp)
		defer done()
		return bytes.Clone(data)
	}
	for _, length := range []int64{int64(len(body)), -1} {
		if got := read(answer(length, body)); !bytes.Equal(got, body) {
			t.Fatalf("length %d: read %d bytes of %d", length, len(got), len(body))
		}
		const runs = 20
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			data, done := r.readAnswer(answer(length, body))
			if len(data) != len(body) {
				t.Fatalf("length %d: read %d bytes of %d", length, len(data), len(body))
			}
			done()
		}
		runtime.ReadMemStats(&after)
		// A buffer put back on one processor may not be found from
		// another (sync.Pool), so a read now and then allocates one.
		if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > uint64(len(body))/2 && !raceEnabled {
			t.Errorf("length %d: reading a %d-byte answer allocated %d bytes", length, len(body), per)
		}
	}
	if got := read(answer(int64(len(body)), body[:10])); string(got) != "ssssssssss" {
		t.Errorf("short answer: %q", got)
	}
	huge := bytes.Repeat([]byte("h"), keptAnswer+1)
	_, done := r.readAnswer(answer(int64(len(huge)), huge))
	done()
	if buf, _ := r.answers.Get().(*bytes.Buffer); buf != nil && buf.Cap() > keptAnswer {
		t.Errorf("a buffer of %d bytes was kept", buf.Cap())
	}
}
