package rollingupdate

import (
	"time"

	"rollscope/model"
)

// The update's state, kept on the controllers. The names live in model so
// that the console reads the same state this package writes; see there.
const (
	SourceAnnotation   = model.RCSourceAnnotation
	DesiredAnnotation  = model.RCDesiredAnnotation
	OriginalAnnotation = model.RCOriginalAnnotation
	NextAnnotation     = model.RCNextAnnotation
	RenameAnnotation   = model.RCRenameAnnotation
	RenamingAnnotation = model.RCRenamingAnnotation
	RenamingLabel      = model.RCRenamingLabel
	DriverAnnotation   = model.RCDriverAnnotation
	RequestAnnotation  = model.RCRequestAnnotation
)

// rolloutAnnotations are removed from the controller that remains.
var rolloutAnnotations = model.RCUpdateAnnotations

// DefaultDeploymentKey is the label that tells the two controllers' pods apart.
const DefaultDeploymentKey = model.DefaultRCDeploymentKey

// Request is an update as asked for: by the headless command's flags, or by
// the RequestAnnotation's JSON value for Controller.
type Request = model.RCUpdateRequest

// Duration is a time.Duration written as "1m30s" in JSON.
type Duration = model.Duration

// The legacy command's defaults.
const (
	DefaultUpdatePeriod = model.DefaultRCUpdatePeriod
	DefaultPollInterval = model.DefaultRCPollInterval
	DefaultTimeout      = 5 * time.Minute
)

// ParseRequest reads a RequestAnnotation value for controller old.
func ParseRequest(old, value string) (Request, error) { return model.ParseRCUpdateRequest(old, value) }
