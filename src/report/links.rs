//! Where a report's locations link to. A report is opened from somewhere else than where
//! it was made (a CI job's artifact, a page served next to the code), so no link is a
//! `file://` address of the machine that made it: links are relative to the report's
//! own folder, or made from a web base (`--link-base`, a GitHub or GitLab "blob" URL).

use std::path::Path;
use url::Url;

pub enum Links {
    /// Relative to the folder the report is written to.
    Relative(Url),
    /// `base` + the file's path inside its repository + `#L<line>`; `{repository}` in
    /// `base` is the repository folder's name.
    Base(String),
}

impl Links {
    /// Links relative to `folder` (absolute).
    pub fn relative_to(folder: &Path) -> Links {
        Links::Relative(
            Url::from_directory_path(folder)
                .unwrap_or_else(|()| Url::parse("file:///").expect("a valid URL")),
        )
    }

    /// The link to `line` of `file` (absolute), in `repository` (absolute).
    pub fn href(&self, file: &Path, repository: &Path, line: u32) -> String {
        match self {
            Links::Relative(from) => {
                let target = Url::from_file_path(file).ok();
                let relative = target.as_ref().and_then(|t| from.make_relative(t));
                match (relative, target) {
                    (Some(relative), _) => format!("{relative}#L{line}"),
                    (None, Some(target)) => format!("{target}#L{line}"),
                    (None, None) => String::new(),
                }
            }
            Links::Base(base) => {
                let name = repository
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or_default();
                let mut href = base.replace("{repository}", name);
                if !href.ends_with('/') {
                    href.push('/');
                }
                let inside = file.strip_prefix(repository).unwrap_or(file);
                let segments: Vec<String> = inside
                    .components()
                    .filter_map(|c| c.as_os_str().to_str())
                    .map(|s| {
                        url::form_urlencoded::byte_serialize(s.as_bytes())
                            .collect::<String>()
                            // A path segment keeps spaces as %20 (`+` is a form's).
                            .replace('+', "%20")
                    })
                    .collect();
                href.push_str(&segments.join("/"));
                format!("{href}#L{line}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_relative_to_the_report() {
        let links = Links::relative_to(Path::new("/estate/reports"));
        assert_eq!(
            links.href(
                Path::new("/estate/a/manifests/init.pp"),
                Path::new("/estate/a"),
                3
            ),
            "../a/manifests/init.pp#L3"
        );
        assert_eq!(
            links.href(
                Path::new("/estate/reports/my file.pp"),
                Path::new("/estate"),
                1
            ),
            "my%20file.pp#L1"
        );
    }

    #[test]
    fn links_from_a_base_take_the_path_inside_the_repository() {
        let links = Links::Base("https://github.com/acme/{repository}/blob/main".into());
        assert_eq!(
            links.href(
                Path::new("/ci/control/site/profile/manifests/base.pp"),
                Path::new("/ci/control"),
                12
            ),
            "https://github.com/acme/control/blob/main/site/profile/manifests/base.pp#L12"
        );
        let links = Links::Base("https://gitlab.example/x/-/blob/main/".into());
        assert_eq!(
            links.href(Path::new("/r/a b/c+d.pp"), Path::new("/r"), 2),
            "https://gitlab.example/x/-/blob/main/a%20b/c%2Bd.pp#L2"
        );
    }
}
