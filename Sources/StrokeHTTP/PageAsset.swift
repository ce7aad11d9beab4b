/// The page's files (`Sources/StrokeHTTP/Page/`), compiled into the binary
/// (`.embedInCode` resources): the only files the HTTP side serves.
enum PageAsset: Equatable, Sendable {
    case index, script, style

    var contentType: String {
        switch self {
        case .index: return "text/html; charset=utf-8"
        case .script: return "text/javascript; charset=utf-8"
        case .style: return "text/css; charset=utf-8"
        }
    }

    var bytes: [UInt8] {
        switch self {
        case .index: return PackageResources.index_html
        case .script: return PackageResources.page_js
        case .style: return PackageResources.page_css
        }
    }
}
