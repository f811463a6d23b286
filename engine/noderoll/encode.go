package noderoll

import (
	"encoding/json"

	"rollscope/engine/drain"
)

// encodeDrain is the drain request annotation for o.
func encodeDrain(o drain.Options) string {
	b, _ := json.Marshal(o) // plain fields always marshal
	return string(b)
}
