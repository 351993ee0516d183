//! TEMPORARY until the map-art branch lands.
#![allow(missing_docs, dead_code)]
use crate::map::{Map, ProvinceId};
pub struct MapArt;
impl MapArt {
    pub fn width(&self) -> u16 {
        0
    }
    pub fn height(&self) -> u16 {
        0
    }
    pub fn lines(&self) -> &[String] {
        &[]
    }
    pub fn anchor(&self, _p: ProvinceId) -> (u16, u16) {
        (0, 0)
    }
    pub fn cells(&self, _p: ProvinceId) -> std::vec::IntoIter<(u16, u16)> {
        Vec::new().into_iter()
    }
    pub fn province_at(&self, _x: u16, _y: u16) -> Option<ProvinceId> {
        None
    }
    pub fn nearest_in_direction(&self, _p: ProvinceId, _dx: i8, _dy: i8) -> Option<ProvinceId> {
        None
    }
}
pub trait ArtExt {
    fn art(&self) -> Option<&MapArt>;
}
impl ArtExt for Map {
    fn art(&self) -> Option<&MapArt> {
        None
    }
}
