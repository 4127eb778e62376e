package stores

// Publish is publish, for the tests.
var Publish = publish
