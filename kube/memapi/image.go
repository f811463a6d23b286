package memapi

import "regexp"

// imageReference matches a container image reference as the distribution
// reference grammar defines it: [domain/]path[:tag][@digest].
var imageReference = func() *regexp.Regexp {
	const (
		domainComponent = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
		domain          = `(?:` + domainComponent + `(?:\.` + domainComponent + `)*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?`
		pathComponent   = `[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*`
		name            = `(?:` + domain + `/)?` + pathComponent + `(?:/` + pathComponent + `)*`
		tag             = `[\w][\w.-]{0,127}`
		digest          = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}`
	)
	return regexp.MustCompile(`^(` + name + `)(?::(` + tag + `))?(?:@(` + digest + `))?$`)
}()

var hexIdentifier = regexp.MustCompile(`^[a-f0-9]{64}$`)

// imageTag returns the tag the kubelet would pull for an image, as upstream's
// image name parser decides it for pull-policy defaulting: the explicit tag,
// "latest" when there is neither tag nor digest, and "" for a digest-only or
// unparseable reference.
func imageTag(image string) string {
	if hexIdentifier.MatchString(image) {
		return ""
	}
	m := imageReference.FindStringSubmatch(image)
	if m == nil || len(m[1]) > 255 {
		return ""
	}
	if tag, digest := m[2], m[3]; tag != "" || digest != "" {
		return tag
	}
	return "latest"
}
