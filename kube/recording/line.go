package recording

import (
	"encoding/json"

	rec "rollscope/model/recording"
)

// appendRecord appends r as json.Marshal writes it. A batch's record is
// written by hand: its objects' JSON is the writer's own (json.Marshal's,
// compact), and json.Marshal would read each of them through again to
// check and compact it — a fifth of the recorder's CPU on a rollout.
// Records with the watch's health, an action or a pause are rare; they go
// through json.Marshal.
func appendRecord(buf []byte, r rec.Record) ([]byte, error) {
	if r.Watch != nil || r.Action != nil || r.Paused {
		data, err := json.Marshal(r)
		return append(buf, data...), err
	}
	t, err := r.At.MarshalJSON()
	if err != nil {
		return buf, err
	}
	buf = append(append(buf, `{"t":`...), t...)
	if len(r.Objects) > 0 {
		buf = append(buf, `,"o":[`...)
		for i, c := range r.Objects {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendRef(buf, c.Ref)
			if len(c.Object) > 0 {
				buf = append(append(buf, `,"f":`...), c.Object...)
			}
			if len(c.Patch) > 0 {
				buf = append(append(buf, `,"p":`...), c.Patch...)
			}
			buf = append(buf, '}')
		}
		buf = append(buf, ']')
	}
	if len(r.Deleted) > 0 {
		buf = append(buf, `,"d":[`...)
		for i, ref := range r.Deleted {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(appendRef(buf, ref), '}')
		}
		buf = append(buf, ']')
	}
	return append(buf, '}'), nil
}

// appendRef opens an object with ref's fields, as Ref's tags name them.
func appendRef(buf []byte, ref rec.Ref) []byte {
	buf = appendString(append(buf, `{"k":`...), ref.Kind)
	if ref.Namespace != "" {
		buf = appendString(append(buf, `,"ns":`...), ref.Namespace)
	}
	return appendString(append(buf, `,"n":`...), ref.Name)
}

// appendString quotes s as encoding/json does: names of Kubernetes
// objects need no escaping, anything else goes through json.Marshal.
func appendString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			data, _ := json.Marshal(s)
			return append(buf, data...)
		}
	}
	return append(append(append(buf, '"'), s...), '"')
}
