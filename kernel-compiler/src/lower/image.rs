//! Image builtins (OpenCL C 1.2 6.12.14): `read_imagef/i/ui`, `write_imagef/i/ui` and the
//! `get_image_*` queries, lowered to `Inst::ImageRead`/`ImageWrite`/`ImageQuery`. Each read
//! or write is a global-memory access site at its source line (the device model counts it
//! there, like a load or store through a pointer argument).

use super::func::{FnLower, Prov, Val};
use super::LResult;
use crate::ast::Expr;
use crate::ir::*;
use crate::sema::types::Type;
use crate::source::Loc;

/// Whether `name` is an image builtin this module lowers.
pub(crate) fn is_image_builtin(name: &str) -> bool {
    matches!(
        name,
        "read_imagef"
            | "read_imagei"
            | "read_imageui"
            | "read_imageh"
            | "write_imagef"
            | "write_imagei"
            | "write_imageui"
            | "write_imageh"
            | "get_image_width"
            | "get_image_height"
            | "get_image_depth"
            | "get_image_array_size"
            | "get_image_channel_data_type"
            | "get_image_channel_order"
            | "get_image_dim"
    )
}

impl<'p, 'a> FnLower<'p, 'a> {
    /// The image argument of an image builtin: its register, type and provenance.
    fn image_operand(&mut self, name: &str, e: &Expr) -> LResult<(Reg, ImageDim, Prov)> {
        let (r, t, prov) = self.rvalue(e)?;
        match t {
            Type::Opaque(n) if ImageDim::from_type_name(n).is_some() => {
                let dim = ImageDim::from_type_name(n).unwrap_or(ImageDim::D2);
                Ok((r, dim, prov.unwrap_or_default()))
            }
            other => {
                let n = self.ty_name(&other);
                Err(self.error(
                    e.loc,
                    format!("first argument of '{name}' must be an image, not '{n}'"),
                ))
            }
        }
    }

    /// Checks the access qualifier of an image kernel argument against the operation.
    fn check_image_access(&mut self, name: &str, img: Reg, write: bool, loc: Loc) -> LResult<()> {
        if let Some((arg, access)) = self.image_access.get(&img.0).cloned() {
            let bad = match access {
                ArgAccess::WriteOnly => !write,
                ArgAccess::ReadOnly | ArgAccess::None => write,
                ArgAccess::ReadWrite => false,
            };
            if bad {
                let want = if write { "write_only" } else { "read_only" };
                return Err(self.error(
                    loc,
                    format!("'{name}' needs a '{want}' image, but '{arg}' is not"),
                ));
            }
        }
        Ok(())
    }

    /// Lowers an image builtin call.
    pub(crate) fn image_builtin(&mut self, name: &str, args: &[Expr], loc: Loc) -> LResult<Val> {
        if matches!(name, "read_imageh" | "write_imageh") {
            return Err(self.error(
                loc,
                format!(
                    "'{name}' needs the cl_khr_fp16 extension, which the device does not support"
                ),
            ));
        }
        if let Some(q) = name.strip_prefix("get_image_") {
            return self.image_query(name, q, args, loc);
        }
        let (write, suffix) = match name.strip_prefix("read_image") {
            Some(s) => (false, s),
            None => (true, name.trim_start_matches("write_image")),
        };
        let family = match suffix {
            "f" => Scalar::F32,
            "i" => Scalar::I32,
            _ => Scalar::U32,
        };
        if write {
            self.argc(name, args, 3, loc)?;
        } else if args.len() != 2 && args.len() != 3 {
            return Err(self.error(
                loc,
                format!(
                    "'{name}' takes (image, sampler, coord) or (image, coord), {} arguments given",
                    args.len()
                ),
            ));
        }
        let (img, dim, prov) = self.image_operand(name, &args[0])?;
        self.check_image_access(name, img, write, args[0].loc)?;
        let want_lanes = match dim.coords() {
            1 => 1,
            2 => 2,
            _ => 4,
        };
        let sampler = if !write && args.len() == 3 {
            let (sr, st, _) = self.rvalue(&args[1])?;
            if !matches!(st, Type::Opaque("sampler_t")) {
                let n = self.ty_name(&st);
                return Err(self.error(
                    args[1].loc,
                    format!("second argument of '{name}' must be a sampler_t, not '{n}'"),
                ));
            }
            Some(sr)
        } else {
            None
        };
        let coord_e = if write || sampler.is_none() {
            &args[1]
        } else {
            &args[2]
        };
        let (cr, ct, _) = self.rvalue(coord_e)?;
        let (cs, cl) = match &ct {
            Type::Scalar(s) => (*s, 1u8),
            Type::Vector(s, n) => (*s, *n),
            _ => (Scalar::Bool, 0),
        };
        let float_ok = sampler.is_some() && !write;
        let kind_ok = cs == Scalar::I32 || (float_ok && cs == Scalar::F32);
        if !kind_ok || cl != want_lanes {
            let want = |s: &str| {
                if want_lanes == 1 {
                    s.to_string()
                } else {
                    format!("{s}{want_lanes}")
                }
            };
            let allowed = if float_ok {
                format!("'{}' or '{}'", want("int"), want("float"))
            } else {
                format!("'{}'", want("int"))
            };
            let n = self.ty_name(&ct);
            return Err(self.error(
                coord_e.loc,
                format!(
                    "coordinates of '{name}' on '{}' must be {allowed}, not '{n}'",
                    dim.type_name()
                ),
            ));
        }
        let kind = if write {
            SiteKind::Store
        } else {
            SiteKind::Load
        };
        let site = self.new_site(
            kind,
            AddrSpace::Global,
            loc,
            16,
            prov.target.clone(),
            prov.arg,
        );
        let vec4 = Type::Vector(family, 4);
        if write {
            let (vr, vt, _) = self.rvalue(&args[2])?;
            let ok = match &vt {
                Type::Vector(s, 4) => *s == family || family == Scalar::F32,
                _ => false,
            };
            if !ok {
                let (x, y) = (self.ty_name(&vt), self.ty_name(&vec4));
                return Err(self.error(
                    args[2].loc,
                    format!("color of '{name}' must be '{y}', not '{x}'"),
                ));
            }
            let src = self.convert(vr, &vt, &vec4, args[2].loc)?;
            self.emit(Inst::ImageWrite {
                family,
                img,
                coord: cr,
                coord_lanes: cl,
                src,
                site,
            });
            return Ok(Val::Void);
        }
        let dst = self.alloc(4);
        self.emit(Inst::ImageRead {
            family,
            dst,
            img,
            sampler,
            coord: cr,
            coord_ty: ValTy::vector(cs, cl),
            site,
        });
        Ok(Val::R {
            reg: dst,
            ty: vec4,
            prov: None,
        })
    }

    fn image_query(&mut self, name: &str, q: &str, args: &[Expr], loc: Loc) -> LResult<Val> {
        self.argc(name, args, 1, loc)?;
        let (img, dim, _) = self.image_operand(name, &args[0])?;
        let q = match q {
            "width" => ImageQuery::Width,
            "height" => ImageQuery::Height,
            "depth" => ImageQuery::Depth,
            "array_size" => ImageQuery::ArraySize,
            "channel_data_type" => ImageQuery::ChannelDataType,
            "channel_order" => ImageQuery::ChannelOrder,
            _ => ImageQuery::Dim,
        };
        let valid = match q {
            ImageQuery::Height => dim.coords() >= 2 && dim != ImageDim::D1Array,
            ImageQuery::Depth => dim == ImageDim::D3,
            ImageQuery::ArraySize => matches!(dim, ImageDim::D1Array | ImageDim::D2Array),
            ImageQuery::Dim => {
                !matches!(dim, ImageDim::D1 | ImageDim::D1Buffer | ImageDim::D1Array)
            }
            _ => true,
        };
        if !valid {
            return Err(self.error(
                loc,
                format!("'{name}' is not defined for '{}'", dim.type_name()),
            ));
        }
        let lanes = match q {
            ImageQuery::Dim if dim == ImageDim::D3 => 4,
            ImageQuery::Dim => 2,
            _ => 1,
        };
        let dst = self.alloc(lanes);
        self.emit(Inst::ImageQuery { q, dst, img, lanes });
        let ty = if lanes == 1 {
            Type::Scalar(Scalar::I32)
        } else {
            Type::Vector(Scalar::I32, lanes)
        };
        Ok(Val::R {
            reg: dst,
            ty,
            prov: None,
        })
    }
}
