package largelist

import (
	"testing"

	"rollscope/test/e2e/rollscopebin"
)

func TestMain(m *testing.M) { rollscopebin.Main(m) }
