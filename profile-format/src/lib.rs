//! profile.mon data model, writer, reader and exports.
