// Package web serves sealed's public site and JSON API with echo.
package web
