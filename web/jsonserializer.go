package web

import (
	"encoding/json"
	"fmt"

	"github.com/labstack/echo/v4"
)

// jsonSerializer is echo's default JSON serializer without HTML escaping:
// answers are application/json with nosniff, so "<" needs no \u003c, and
// an entry's raw leaf (json.RawMessage) is served byte for byte, so
// SHA-256(0x00 || leaf) equals the leaf hash served beside it (RFC 6962
// §2.1).
type jsonSerializer struct{}

// Serialize writes i as JSON, indented when indent is not "".
func (jsonSerializer) Serialize(c echo.Context, i any, indent string) error {
	enc := json.NewEncoder(c.Response())
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	return enc.Encode(i)
}

// Deserialize decodes the request body into i, as echo's default does.
func (jsonSerializer) Deserialize(c echo.Context, i any) error {
	err := json.NewDecoder(c.Request().Body).Decode(i)
	if err != nil {
		return echo.NewHTTPError(400, fmt.Sprintf("bad JSON: %v", err)).SetInternal(err)
	}
	return nil
}
