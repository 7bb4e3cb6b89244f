// swift-tools-version: 5.9
// A local package of the Stamps project, pure Swift: it builds on Linux as it is.
import PackageDescription

let package = Package(
    name: "StampKit",
    products: [.library(name: "StampKit", targets: ["StampKit"])],
    targets: [.target(name: "StampKit")]
)
