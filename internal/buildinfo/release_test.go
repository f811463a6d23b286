package buildinfo

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestReleaseConfigurationsAgree: goreleaser's configuration, the
// Makefile's release (which builds without goreleaser) and krew's manifest
// name the same platforms, flags and archives, so that what `make release`
// builds is what a release publishes and what krew installs.
func TestReleaseConfigurationsAgree(t *testing.T) {
	var gr struct {
		Builds []struct {
			Main, Binary string
			Env, Flags   []string
			Ldflags      []string
			Goos, Goarch []string
		}
		Archives []struct {
			Formats      []string
			NameTemplate string `yaml:"name_template"`
		}
		Release struct{ Disable bool }
	}
	if err := yaml.Unmarshal(read(t, "../../.goreleaser.yaml"), &gr); err != nil {
		t.Fatal(err)
	}
	if len(gr.Builds) != 1 || len(gr.Archives) != 1 {
		t.Fatalf(".goreleaser.yaml: %d builds, %d archives; want one of each", len(gr.Builds), len(gr.Archives))
	}
	b, a := gr.Builds[0], gr.Archives[0]
	if b.Main != "./cmd/rollscope" || !slices.Contains(b.Env, "CGO_ENABLED=0") || !slices.Contains(b.Flags, "-trimpath") ||
		strings.Join(b.Ldflags, " ") != "-s -w" || !gr.Release.Disable {
		t.Errorf(".goreleaser.yaml builds %+v, release disabled %v; want ./cmd/rollscope, CGO off, -trimpath, -s -w, nothing published", b, gr.Release.Disable)
	}
	var platforms []string
	for _, goos := range b.Goos {
		for _, arch := range b.Goarch {
			platforms = append(platforms, goos+"/"+arch)
		}
	}
	slices.Sort(platforms)

	makefile := string(read(t, "../../Makefile"))
	made := strings.Fields(regexp.MustCompile(`(?m)^RELEASE_PLATFORMS := (.*)$`).FindStringSubmatch(makefile)[1])
	slices.Sort(made)
	if !slices.Equal(made, platforms) || len(platforms) != 6 {
		t.Errorf("make release builds %v, goreleaser %v; want linux, darwin and windows on amd64 and arm64 in both", made, platforms)
	}
	if flags := regexp.MustCompile(`(?m)^RELEASE_FLAGS := (.*)$`).FindStringSubmatch(makefile)[1]; !strings.Contains(flags, "-trimpath") || !strings.Contains(flags, `-ldflags "-s -w"`) ||
		!strings.Contains(makefile, "CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch") || !strings.Contains(makefile, "test: fmt-check vet unit race release-check") {
		t.Errorf("the Makefile's release flags %q: want goreleaser's, and make test to check the release binary's size", flags)
	}

	krew := string(read(t, "../../plugins/rollscope.yaml"))
	if !strings.Contains(krew, "kind: Plugin") || !strings.Contains(krew, "name: rollscope") || !slices.Equal(a.Formats, []string{"tar.gz"}) || a.NameTemplate != "{{ .ProjectName }}_{{ .Os }}_{{ .Arch }}" {
		t.Fatalf("krew manifest or archive names changed: archives %+v", a)
	}
	for _, p := range platforms {
		goos, arch, _ := strings.Cut(p, "/")
		if !strings.Contains(krew, "matchLabels: {os: "+goos+", arch: "+arch+"}") || !strings.Contains(krew, "/rollscope_"+goos+"_"+arch+".tar.gz") {
			t.Errorf("plugins/rollscope.yaml has no platform %s with its archive rollscope_%s_%s.tar.gz", p, goos, arch)
		}
	}
}

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
